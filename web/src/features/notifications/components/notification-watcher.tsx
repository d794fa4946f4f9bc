import { useEffect } from 'react';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { NOTIFICATION_POPUP_MS } from '@edu/domain/common/messages';
import { playBeep } from '../../../lib/beep';
import { paletteColor } from '../../../lib/colors';
import { CURRENT_USER_KEY } from '../../../lib/current-user';
import { NamedIcon } from '../../../components/named-icon';
import { useNewNotifications } from '../api/get-new-notifications';

/** The highest notification id already seen in this tab, per user (kept across layout switches). */
const seen = { userId: 0, lastId: null as number | null };

/**
 * Watches the polled /new answer: each notification newer than the last seen id pops up for
 * 2000 ms with a short sound, and the current user is refreshed (badges, widgets). The first answer
 * only sets the starting point, so opening the cabinet does not replay old notifications.
 */
export function NotificationWatcher({ userId }: { userId: number }) {
  const { data } = useNewNotifications();
  const queryClient = useQueryClient();

  useEffect(() => {
    if (!data) return;
    if (seen.userId !== userId) {
      seen.userId = userId;
      seen.lastId = null;
    }
    const newest = data.data.reduce((max, n) => Math.max(max, n.id), 0);
    if (seen.lastId === null) {
      seen.lastId = newest;
      return;
    }
    const since = seen.lastId;
    const fresh = data.data.filter((n) => n.id > since).sort((a, b) => a.id - b.id);
    if (fresh.length === 0) return;
    seen.lastId = Math.max(since, newest);
    for (const n of fresh) {
      notifications.show({
        id: `notification-${n.id}`,
        message: n.text_clear,
        color: paletteColor(n.color, 'blue'),
        icon: <NamedIcon name={n.icon} fallback="IconBell" size={18} />,
        autoClose: NOTIFICATION_POPUP_MS,
        withBorder: true,
      });
    }
    playBeep();
    void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
  }, [data, userId, queryClient]);

  return null;
}
