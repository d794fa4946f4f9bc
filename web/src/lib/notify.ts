import { notifications } from '@mantine/notifications';
import { NOTICE_MS } from '@edu/domain/common/messages';

/** Ordinary notices stay 5000 ms (spec 01 §9). */
export function notifySuccess(message: string): void {
  notifications.show({ message, color: 'teal', autoClose: NOTICE_MS, withBorder: true });
}

export function notifyError(message: string): void {
  notifications.show({ message, color: 'red', autoClose: NOTICE_MS, withBorder: true });
}

export function notifyInfo(message: string): void {
  notifications.show({ message, autoClose: NOTICE_MS, withBorder: true });
}
