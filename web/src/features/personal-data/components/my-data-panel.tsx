import { Button, List, Paper, Stack, Text, Title } from '@mantine/core';
import { isExportRunning } from '@edu/domain/personal-data/personal-data';
import { errorMessage } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useMyExport, useRequestMyExport } from '../api/my-export';
import { ExportState } from './export-state';

/** «Мои данные» in the settings (issue 33, 152-FZ): an archive of everything the centre holds about the person. */
export function MyDataPanel() {
  const current = useMyExport();
  const request = useRequestMyExport();
  const running = Boolean(current.data && isExportRunning(current.data.status));

  async function ask() {
    try {
      const answer = await request.mutateAsync();
      notifySuccess(answer.message);
    } catch (error) {
      notifyError(errorMessage(error));
    }
  }

  return (
    <Paper p="lg" radius="lg" component="section" aria-labelledby="my-data-title">
      <Stack gap="sm">
        <Title order={3} size="h5" id="my-data-title">
          Мои данные
        </Title>
        <Text size="sm">Архив всего, что учебный центр хранит о вас (152-ФЗ), одним файлом .zip:</Text>
        <List size="sm" spacing={2}>
          <List.Item>профиль, данные паспорта и СНИЛС (номера скрыты, кроме трёх последних цифр);</List.Item>
          <List.Item>заявки со статусами, оплаты, возвраты, договоры, публикации, сертификаты с кодами проверки;</List.Item>
          <List.Item>уведомления, отправленные письма и согласия с датами;</List.Item>
          <List.Item>сводка для чтения (HTML), таблица Excel и загруженные вами файлы.</List.Item>
        </List>
        {current.data && <ExportState value={current.data} />}
        <Button onClick={() => void ask()} loading={request.isPending} disabled={running || current.isLoading} w={{ base: '100%', xs: 'auto' }}>
          {current.data ? 'Запросить новый архив' : 'Запросить архив'}
        </Button>
        <Text size="xs" c="dimmed">
          Архив готовится несколько минут; ссылка на скачивание действует сутки.
        </Text>
      </Stack>
    </Paper>
  );
}
