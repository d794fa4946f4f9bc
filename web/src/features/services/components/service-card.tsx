import { Badge, Flex, Group, Paper, Stack, Text } from '@mantine/core';
import { IconCalendarEvent, IconLayoutList } from '@tabler/icons-react';
import { Link } from 'react-router';
import { DateType } from '@edu/domain/common/codes';
import { formatPrice } from '@edu/domain/common/format';
import type { Service } from '@edu/domain/services/service';
import { paletteColor } from '../../../lib/colors';
import { pointsText } from '../../../lib/text';
import classes from './catalogue.module.css';

interface ServiceCardProps {
  service: Service;
  to: string;
  onOpen: (service: Service) => void;
}

/** One service of the catalogue: type, title, interval (date type 1), price and points; muted when done. */
export function ServiceCard({ service, to, onOpen }: ServiceCardProps) {
  const color = paletteColor(service.type?.color);
  return (
    <Link to={to} className={classes.serviceCard} data-done={service.is_done || undefined} onClick={() => onOpen(service)} data-testid="service-card">
      <Paper p="md" radius="md" className={classes.servicePaper}>
        {/* On a phone the price goes under the title, so long words of the title keep whole. */}
        <Flex justify="space-between" align={{ base: 'stretch', xs: 'flex-start' }} direction={{ base: 'column', xs: 'row' }} gap={{ base: 'xs', xs: 'md' }}>
          <Stack gap={6} style={{ minWidth: 0 }}>
            <Group gap={6}>
              {service.type && (
                <Badge color={color} variant="light" tt="none" size="sm">
                  {service.type.fdv}
                </Badge>
              )}
              {service.is_done && (
                <Badge color="gray" variant="outline" tt="none" size="sm">
                  Завершена
                </Badge>
              )}
            </Group>
            <Text fw={600} lh={1.35}>
              {service.title}
            </Text>
            <Group gap="md" c="dimmed">
              {service.date_type === DateType.specific && service.interval_formatted && (
                <Group gap={4} wrap="nowrap">
                  <IconCalendarEvent size={15} stroke={1.6} />
                  <Text size="sm">{service.interval_formatted}</Text>
                </Group>
              )}
              {service.sections.length > 0 && (
                <Group gap={4} wrap="nowrap">
                  <IconLayoutList size={15} stroke={1.6} />
                  <Text size="sm">Секций: {service.sections.length}</Text>
                </Group>
              )}
            </Group>
          </Stack>
          <Flex gap={{ base: 'sm', xs: 2 }} direction={{ base: 'row', xs: 'column' }} align={{ base: 'baseline', xs: 'flex-end' }} style={{ flexShrink: 0 }}>
            <Text fw={700} size="lg" style={{ whiteSpace: 'nowrap' }}>
              {formatPrice(service.price)}
            </Text>
            {service.points > 0 && (
              <Text size="sm" c="teal.7" style={{ whiteSpace: 'nowrap' }}>
                +{pointsText(service.points)}
              </Text>
            )}
          </Flex>
        </Flex>
      </Paper>
    </Link>
  );
}
