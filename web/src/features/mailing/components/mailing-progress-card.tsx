import { useState } from 'react';
import { Badge, Button, Card, Group, Progress, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import type { MailingProgress } from '@edu/domain/mailing/mailing';
import { useMailing } from '../api/get-mailing';

const STATUS_COLOR = { queued: 'gray', sending: 'blue', done: 'teal' } as const;
const number = (n: number) => new Intl.NumberFormat('ru-RU').format(n);

function Figure({ label, value, color }: { label: string; value: string; color?: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg" c={color}>
        {value}
      </Text>
    </Stack>
  );
}

/** One mailing: status, a progress bar and the figures (sent, failed, left, rate); failed addresses on demand. */
export function MailingProgressCard({ mailing }: { mailing: MailingProgress }) {
  const [showFailures, setShowFailures] = useState(false);
  const details = useMailing(mailing.id, showFailures, mailing.status !== 'done');
  const total = Math.max(1, mailing.recipients);
  const sentPart = (mailing.sent / total) * 100;
  const failedPart = (mailing.failed / total) * 100;

  return (
    <Card radius="lg" withBorder padding="lg" data-testid={`mailing-${mailing.id}`}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text size="sm" c="dimmed">
              Рассылка № {mailing.id} от {mailing.created_at_formatted}
            </Text>
            <Text fw={600}>{mailing.subject}</Text>
            <Text size="xs" c="dimmed" data-testid="mailing-audience-label">
              Кому: {mailing.audience_label}
            </Text>
            <Text lineClamp={2}>{mailing.excerpt}</Text>
          </Stack>
          <Badge color={STATUS_COLOR[mailing.status]} variant="light" style={{ flexShrink: 0 }} data-testid="mailing-status">
            {mailing.status_label}
          </Badge>
        </Group>
        <Progress.Root size="lg" radius="xl" aria-label="Ход рассылки">
          <Progress.Section value={sentPart} color="teal" />
          <Progress.Section value={failedPart} color="red" />
        </Progress.Root>
        <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="sm">
          <Figure label="Получателей" value={number(mailing.recipients)} />
          <Figure label="Отправлено" value={number(mailing.sent)} color="teal.8" />
          <Figure label="Ошибки" value={number(mailing.failed)} color={mailing.failed > 0 ? 'red.7' : undefined} />
          <Figure label="Осталось" value={number(mailing.left)} />
          <Figure label="Скорость" value={mailing.status === 'done' ? '—' : `${number(mailing.rate_per_minute)} писем/мин`} />
        </SimpleGrid>
        {mailing.finished_at_formatted && (
          <Text size="xs" c="dimmed">
            Завершена {mailing.finished_at_formatted}
          </Text>
        )}
        {mailing.failed > 0 && (
          <Stack gap="xs">
            <Button variant="subtle" color="red" size="xs" onClick={() => setShowFailures((v) => !v)} w="fit-content">
              {showFailures ? 'Скрыть адреса с ошибками' : 'Показать адреса с ошибками'}
            </Button>
            {showFailures && details.data && (
              <Table.ScrollContainer minWidth={360}>
                <Table fz="sm">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>E-mail</Table.Th>
                      <Table.Th>Попыток</Table.Th>
                      <Table.Th>Ответ почтового сервера</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {details.data.failures.map((f) => (
                      <Table.Tr key={f.email}>
                        <Table.Td>{f.email}</Table.Td>
                        <Table.Td>{f.attempts}</Table.Td>
                        <Table.Td>{f.error}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
