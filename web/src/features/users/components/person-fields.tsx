import { SimpleGrid, Stack, Text, type SimpleGridProps } from '@mantine/core';
import { formatRub } from '@edu/domain/common/format';
import type { UserDetails } from '@edu/domain/users/current-user';

// What the operator's user modal and one's own profile page both show and edit of a person.

/** The person's own fields, as form values (empty strings for what is not filled). */
export interface PersonValues {
  last_name: string;
  first_name: string;
  middle_name: string;
  email: string;
  phone: string;
  organization: string;
  job_title: string;
  learned_from_us: string;
}

export function personValues(
  u: Pick<UserDetails, 'last_name' | 'first_name' | 'middle_name' | 'phone' | 'organization' | 'job_title' | 'learned_from_us'> & { email: string | null },
): PersonValues {
  return {
    last_name: u.last_name,
    first_name: u.first_name,
    middle_name: u.middle_name ?? '',
    email: u.email ?? '',
    phone: u.phone ?? '',
    organization: u.organization ?? '',
    job_title: u.job_title ?? '',
    learned_from_us: u.learned_from_us ?? '',
  };
}

/** Entries, paid entries and the amount due (red while something is unpaid). */
export function EntryFigures({
  user,
  testIdPrefix,
  ...grid
}: { user: Pick<UserDetails, 'entries_num' | 'service_count' | 'left_sum'>; testIdPrefix?: string } & SimpleGridProps) {
  const testId = (name: string) => (testIdPrefix ? `${testIdPrefix}-${name}` : undefined);
  return (
    <SimpleGrid cols={3} spacing="xs" {...grid}>
      <Figure label="Заявок" value={String(user.entries_num)} testId={testId('entries')} />
      <Figure label="Оплачено" value={String(user.service_count)} testId={testId('paid')} />
      <Figure label="К оплате" value={formatRub(user.left_sum)} color={user.left_sum > 0 ? 'red.7' : 'teal.7'} testId={testId('left-sum')} />
    </SimpleGrid>
  );
}

function Figure({ label, value, color, testId }: { label: string; value: string; color?: string; testId?: string }) {
  return (
    <Stack gap={0} align="center" data-testid={testId}>
      <Text fw={700} size="lg" c={color} style={{ whiteSpace: 'nowrap' }}>
        {value}
      </Text>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
    </Stack>
  );
}
