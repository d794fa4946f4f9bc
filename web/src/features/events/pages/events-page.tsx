import { useState } from 'react';
import { Button, Card, Group, Paper, Skeleton, Stack, Table, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMailCog } from '@tabler/icons-react';
import { EventMessages, type EventRow } from '@edu/domain/events/event';
import { BreakableText } from '../../../components/breakable-text';
import { NamedIcon } from '../../../components/named-icon';
import { errorMessage } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useNarrow } from '../../../lib/use-narrow';
import { useEvents } from '../api/get-events';
import { useNotificationTemplates, type NotificationTemplate } from '../api/get-notification-templates';
import { MailingSwitch, NotificationTemplateSelect } from '../components/event-controls';
import { EventTemplateModal } from '../components/event-template-modal';

function EventIcon({ event }: { event: EventRow }) {
  return (
    <ThemeIcon variant="light" color={event.color ?? 'blue'} size={36} radius="md">
      <NamedIcon name={event.icon} size={20} />
    </ThemeIcon>
  );
}

function TemplateButton({ event, onOpen }: { event: EventRow; onOpen: (e: EventRow) => void }) {
  return (
    <Button
      variant="light"
      size="xs"
      leftSection={<IconMailCog size={16} />}
      onClick={() => onOpen(event)}
      aria-label={`${EventMessages.template}: ${event.fdv}`}
    >
      {EventMessages.template}
    </Button>
  );
}

function EventsTable({ events, templates, onOpen }: { events: EventRow[]; templates: NotificationTemplate[]; onOpen: (e: EventRow) => void }) {
  return (
    <Paper radius="lg" withBorder>
      {/* Narrow gutters leave the template select room to show a long title whole. */}
      <Table verticalSpacing="sm" horizontalSpacing="xs" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={56}>Иконка</Table.Th>
            <Table.Th>Название</Table.Th>
            <Table.Th>Тема письма</Table.Th>
            <Table.Th w={110}>Письмо</Table.Th>
            <Table.Th w={340}>{EventMessages.notificationTemplate}</Table.Th>
            <Table.Th w={110}>Рассылка</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {events.map((e) => (
            <Table.Tr key={e.id} data-testid={`event-${e.id}`}>
              <Table.Td>
                <EventIcon event={e} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" fw={500}>
                  {e.fdv}
                </Text>
              </Table.Td>
              <Table.Td>
                {/* A subject with a long macro (${publication.title_quoted}) wraps at its '.' and '_', not past the table. */}
                <Text size="sm" c="dimmed" lineClamp={2} title={e.dv ?? undefined}>
                  <BreakableText text={e.dv ?? ''} after="._" />
                </Text>
              </Table.Td>
              <Table.Td>
                <TemplateButton event={e} onOpen={onOpen} />
              </Table.Td>
              <Table.Td>
                <NotificationTemplateSelect event={e} templates={templates} />
              </Table.Td>
              <Table.Td>
                <MailingSwitch event={e} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

function EventCards({ events, templates, onOpen }: { events: EventRow[]; templates: NotificationTemplate[]; onOpen: (e: EventRow) => void }) {
  return (
    <Stack gap="sm">
      {events.map((e) => (
        <Card key={e.id} radius="lg" withBorder padding="md" data-testid={`event-${e.id}`}>
          <Stack gap="sm">
            <Group gap="sm" wrap="nowrap" align="flex-start">
              <EventIcon event={e} />
              <Stack gap={2} style={{ minWidth: 0 }}>
                <Text fw={600}>{e.fdv}</Text>
                <Text size="sm" c="dimmed" lineClamp={2}>
                  <BreakableText text={e.dv ?? ''} after="._" />
                </Text>
              </Stack>
            </Group>
            <Text size="xs" c="dimmed" mb={-6}>
              {EventMessages.notificationTemplate}
            </Text>
            <NotificationTemplateSelect event={e} templates={templates} />
            <Group justify="space-between">
              <TemplateButton event={e} onOpen={onOpen} />
              <MailingSwitch event={e} withLabel />
            </Group>
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}

/** /manager/events 'События' (spec 03 §2): icon, title, the e-mail template, the notification template, the mailing switch. */
export function EventsPage() {
  useDocumentTitle(EventMessages.title);
  const narrow = useNarrow();
  const events = useEvents();
  const templates = useNotificationTemplates();
  const [editing, setEditing] = useState<EventRow | null>(null);
  const list = events.data ?? [];

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={2}>{EventMessages.title}</Title>
        <Text c="dimmed" size="sm">
          Письма и уведомления, которые получают пользователи при регистрации, по заявкам, договорам и публикациям.
        </Text>
      </Stack>
      {events.isPending ? (
        <Stack gap="xs">
          {Array.from({ length: 8 }, (_, i) => (
            <Skeleton key={i} h={narrow ? 150 : 56} radius="md" />
          ))}
        </Stack>
      ) : events.isError ? (
        <Paper p="xl" radius="lg">
          <Text c="red.7">{errorMessage(events.error)}</Text>
        </Paper>
      ) : narrow ? (
        <EventCards events={list} templates={templates.data ?? []} onOpen={setEditing} />
      ) : (
        <EventsTable events={list} templates={templates.data ?? []} onOpen={setEditing} />
      )}
      <EventTemplateModal event={editing} onClose={() => setEditing(null)} />
    </Stack>
  );
}
