import { Group, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import type { Notification } from '@edu/domain/notifications/notification';
import { paletteColor } from '../../../lib/colors';
import { HtmlContent } from '../../../components/html-content';
import { NamedIcon } from '../../../components/named-icon';
import classes from './notifications.module.css';

interface NotificationItemProps {
  notification: Notification;
  onOpen: (notification: Notification) => void;
  /** The short text (bell) or the formatted one (lists). */
  rich?: boolean;
}

/** One notification: icon in its colour, text, date; read ones are faded. */
export function NotificationItem({ notification, onOpen, rich = false }: NotificationItemProps) {
  return (
    <UnstyledButton
      className={classes.item}
      data-checked={notification.checked || undefined}
      onClick={() => onOpen(notification)}
      data-testid="notification-item"
    >
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon color={paletteColor(notification.color, 'blue')} variant="light" radius="xl" size={34}>
          <NamedIcon name={notification.icon} fallback="IconBell" size={18} />
        </ThemeIcon>
        <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
          {rich ? (
            <HtmlContent html={notification.text} fz="sm" className={classes.text} />
          ) : (
            <Text size="sm" lh={1.4}>
              {notification.text_clear}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            {notification.created_at_formatted}
          </Text>
        </Stack>
      </Group>
    </UnstyledButton>
  );
}
