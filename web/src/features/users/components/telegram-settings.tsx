import { useState } from 'react';
import { Anchor, Button, Group, Loader, Paper, Skeleton, Stack, Switch, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBrandTelegram, IconCircleCheck } from '@tabler/icons-react';
import { TelegramMessages } from '@edu/domain/telegram/telegram';
import { formatDateTime } from '@edu/domain/common/format';
import { errorMessage } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useTelegramState } from '../api/telegram-state';
import { useTelegramLink, useTelegramUnlink } from '../api/telegram-link';
import { useSetTelegramSummary } from '../api/telegram-summary';

/**
 * The «Telegram» block of the settings (issue 33): a one-time deep link to the centre's bot, the
 * linked state with «Отключить», and for operators the daily summary switch. Without a bot at the
 * centre it says so and offers nothing to press.
 */
export function TelegramSettings() {
  const [deepLink, setDeepLink] = useState<string | null>(null);
  const state = useTelegramState({ waiting: deepLink !== null });
  const link = useTelegramLink();
  const unlink = useTelegramUnlink();
  const summary = useSetTelegramSummary();
  const data = state.data;

  async function connect() {
    try {
      setDeepLink((await link.mutateAsync()).url);
    } catch (error) {
      notifyError(errorMessage(error));
    }
  }
  async function disconnect() {
    try {
      notifySuccess((await unlink.mutateAsync()).message);
      setDeepLink(null);
    } catch (error) {
      notifyError(errorMessage(error));
    }
  }
  async function toggleSummary(on: boolean) {
    try {
      notifySuccess((await summary.mutateAsync(on)).message);
    } catch (error) {
      notifyError(errorMessage(error));
    }
  }

  return (
    <Paper p="lg" radius="lg" aria-labelledby="telegram-title" component="section">
      <Stack gap="sm">
        <Group gap="xs" wrap="nowrap">
          <IconBrandTelegram size={22} aria-hidden />
          <Title order={3} size="h5" id="telegram-title">
            {TelegramMessages.blockTitle}
          </Title>
        </Group>
        {!data ? (
          <Skeleton h={36} />
        ) : !data.configured ? (
          <Text size="sm" c="dimmed" data-testid="telegram-off">
            {TelegramMessages.notConfigured}
          </Text>
        ) : data.linked ? (
          <>
            <Group gap="xs" wrap="nowrap" data-testid="telegram-linked">
              <ThemeIcon color="teal" variant="light" radius="xl" size="md" aria-hidden>
                <IconCircleCheck size={18} />
              </ThemeIcon>
              <Text fw={600}>{TelegramMessages.linked}</Text>
            </Group>
            <Text size="sm" c="dimmed">
              {[data.username ? `@${data.username}` : null, data.linked_at ? `с ${formatDateTime(data.linked_at)}` : null].filter(Boolean).join(', ')}
            </Text>
            {data.can_summary && (
              <Switch
                label={TelegramMessages.summaryLabel}
                description={TelegramMessages.summaryHint}
                checked={data.daily_summary}
                disabled={summary.isPending}
                onChange={(e) => void toggleSummary(e.currentTarget.checked)}
              />
            )}
            <Group>
              <Button variant="light" color="red" onClick={() => void disconnect()} loading={unlink.isPending}>
                {TelegramMessages.disconnect}
              </Button>
            </Group>
          </>
        ) : (
          <>
            <Text size="sm">{TelegramMessages.intro}</Text>
            {deepLink ? (
              <Stack gap="xs">
                <Group>
                  <Button component="a" href={deepLink} target="_blank" rel="noopener noreferrer" leftSection={<IconBrandTelegram size={18} />}>
                    {TelegramMessages.openBot}
                  </Button>
                </Group>
                <Text size="sm" c="dimmed">
                  {TelegramMessages.linkHint}
                </Text>
                <Group gap="xs" role="status">
                  <Loader size="xs" />
                  <Text size="sm">{TelegramMessages.waiting}</Text>
                </Group>
                <Group>
                  <Anchor component="button" type="button" size="sm" onClick={() => void connect()}>
                    Получить новую ссылку
                  </Anchor>
                </Group>
              </Stack>
            ) : (
              <Group>
                <Button onClick={() => void connect()} loading={link.isPending} leftSection={<IconBrandTelegram size={18} />}>
                  {TelegramMessages.connect}
                </Button>
              </Group>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}
