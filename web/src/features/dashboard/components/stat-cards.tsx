import type { ReactNode } from 'react';
import { Group, Paper, SimpleGrid, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAward, IconCalendarEvent, IconClipboardList, IconWallet } from '@tabler/icons-react';
import { formatRub } from '@edu/domain/common/format';
import type { CurrentUser } from '@edu/domain/users/current-user';
import { cutText } from '../../../lib/text';

/** The four widget cards of the dashboard (spec 01 §2). */
export function StatCards({ user }: { user: CurrentUser }) {
  const owes = user.left_sum > 0;
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="md">
      <StatCard
        label="Заявки"
        icon={<IconClipboardList size={22} />}
        color="indigo"
        value={String(user.entries_num)}
        note={`Баллов будет начислено: ${user.future_points}`}
        testId="widget-entries"
      />
      <StatCard
        label="Ближайшее мероприятие"
        icon={<IconCalendarEvent size={22} />}
        color="grape"
        value={user.closestService ? cutText(user.closestService.title, 30) : 'Нет'}
        valueTitle={user.closestService?.title}
        valueSize="md"
        note={user.closestService ? `Начало: ${user.closestService.begda_formatted}` : 'Запишитесь на услугу в разделе «Услуги»'}
        testId="widget-closest"
      />
      <StatCard
        label="К оплате"
        icon={<IconWallet size={22} />}
        color={owes ? 'red' : 'teal'}
        value={formatRub(user.left_sum)}
        valueColor={owes ? 'red.7' : 'teal.7'}
        note={owes ? 'Оплатите заявки в разделе «Мои заявки»' : 'Все заявки оплачены'}
        testId="widget-left-sum"
      />
      <StatCard label="Баллы" icon={<IconAward size={22} />} color="yellow" value={String(user.points)} note="Начислено за участие" testId="widget-points" />
    </SimpleGrid>
  );
}

interface StatCardProps {
  label: string;
  icon: ReactNode;
  color: string;
  value: string;
  valueTitle?: string;
  valueColor?: string;
  valueSize?: 'md' | 'xl';
  note: string;
  testId: string;
}

function StatCard({ label, icon, color, value, valueTitle, valueColor, valueSize = 'xl', note, testId }: StatCardProps) {
  return (
    <Paper p="md" radius="lg" data-testid={testId}>
      {/* The icon sits beside the label only, so the value has the card's whole width: a long
          event title wraps between words instead of inside one. */}
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Text size="xs" c="dimmed" tt="uppercase" fw={600} lts={0.3} style={{ minWidth: 0 }}>
          {label}
        </Text>
        <ThemeIcon variant="light" color={color} size={42} radius="md" style={{ flexShrink: 0 }}>
          {icon}
        </ThemeIcon>
      </Group>
      <Stack gap={4} mt={4} style={{ minWidth: 0 }}>
        <Text fz={valueSize === 'xl' ? 26 : 'md'} fw={700} lh={1.25} c={valueColor} title={valueTitle}>
          {value}
        </Text>
        <Text size="xs" c="dimmed">
          {note}
        </Text>
      </Stack>
    </Paper>
  );
}
