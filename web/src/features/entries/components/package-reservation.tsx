import { useEffect, useState } from 'react';
import { Group, Text } from '@mantine/core';
import { IconClock } from '@tabler/icons-react';
import { reservationLeft, reservationTime } from '@edu/domain/entries/entry';

/**
 * «Бронь до 06:47 · осталось 12:34» for a whole unpaid package: it is removed when the reservation ends
 * (decision 009). The countdown moves every second; once it ends the line says so.
 */
export function PackageReservation({ until }: { until: string | null | undefined }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!until) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [until]);
  if (!until) return null;
  const left = reservationLeft(until, now);
  return (
    <Group gap={4} wrap="nowrap" data-testid="package-reservation">
      <IconClock size={14} color="var(--mantine-color-orange-7)" style={{ flexShrink: 0 }} />
      <Text size="xs" c="orange.8" fw={500}>
        {left ? `Бронь до ${reservationTime(until)} · осталось ${left}` : 'Бронь истекла: пакет будет снят'}
      </Text>
    </Group>
  );
}
