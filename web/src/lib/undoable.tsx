import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';

/** How long an undoable action waits before it is sent. */
export const UNDO_MS = 6000;

/**
 * An action that can be taken back for a moment: a notice with «Отменить» shows for UNDO_MS, and only
 * then is `run` called. The timer lives outside any component, so leaving the page does not cancel
 * the action; «Отменить» does, and nothing reaches the server. (Closing the tab before then drops it.)
 */
export function runUndoable(opts: { pending: string; undone: string; run: () => Promise<void> }): void {
  const id = `undo-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const timer = setTimeout(() => {
    notifications.hide(id);
    void opts.run();
  }, UNDO_MS);
  notifications.show({
    id,
    autoClose: UNDO_MS,
    withBorder: true,
    withCloseButton: false,
    message: (
      <Group justify="space-between" gap="sm" wrap="nowrap" data-testid="undo-notice">
        <Text size="sm">{opts.pending}</Text>
        <Button
          size="compact-sm"
          variant="light"
          onClick={() => {
            clearTimeout(timer);
            notifications.hide(id);
            notifications.show({ message: opts.undone, autoClose: 3000, withBorder: true });
          }}
        >
          Отменить
        </Button>
      </Group>
    ),
  });
}
