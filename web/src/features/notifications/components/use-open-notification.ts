import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { Notification } from '@edu/domain/notifications/notification';
import { useReadNotification } from '../api/read-notification';

/** A click on a notification marks it read and opens its url (spec 01 §4 Notifications). */
export function useOpenNotification() {
  const navigate = useNavigate();
  const read = useReadNotification();
  const { mutate } = read;
  return useCallback(
    (notification: Notification) => {
      if (!notification.checked) mutate(notification.id);
      const url = notification.url;
      if (!url) return;
      // Fire-and-forget: nothing waits on the route transition.
      if (url.startsWith('/')) void navigate(url);
      else if (/^https?:\/\//i.test(url)) window.open(url, '_blank', 'noopener');
    },
    [mutate, navigate],
  );
}
