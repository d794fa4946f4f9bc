import { useEffect, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { Button, Center, Group, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconFileCheck, IconUserEdit } from '@tabler/icons-react';
import { isOperator } from '@edu/domain/common/codes';
import { PERSONAL_DATA_FIELD, PRINT_KINDS, PrintMessages } from '@edu/domain/documents/print';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/current-user';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { getPrintUrl, takeEarlyPrint } from '../api/get-print-url';

/** Where the personal data a document needs are filled (decision 031), as the asker reads it. */
const FILL_WHERE = {
  client: 'Паспортные данные, дату рождения, адрес регистрации и СНИЛС вносят в разделе «Данные для договора». Заполните их и распечатайте документ снова.',
  operator:
    'Клиент вносит их в личном кабинете, в разделе «Данные для договора»; оператор может заполнить их там же, войдя как пользователь («Пользователи» → «Войти как пользователь»).',
};

/**
 * /entry/:id?/print/:type? (spec 03 §2 Print page): asks for the document and goes to its url; on
 * failure 'Ошибка!' with the hint to contact the operator (spec 03 §8) and the server's reason. A
 * Word file downloads without leaving the tab, so the tab then says the document is ready (issue 30).
 */
export function PrintPage() {
  useDocumentTitle('Печать');
  const { id, type } = useParams();
  const [fetchFailure, setFailure] = useState<string | null>(null);
  const [needsData, setNeedsData] = useState(false);
  /** The document's link once it is ready: a PDF opens in this tab, a Word file downloads and the tab says so. */
  const [ready, setReady] = useState<string | null>(null);
  const { data: me } = useCurrentUser();
  const kind = type ?? 'certificate';
  const valid = Boolean(id) && (kind === 'consent' || (PRINT_KINDS as readonly string[]).includes(kind));
  const failure = valid ? fetchFailure : '';

  useEffect(() => {
    if (!valid || !id) return;
    const controller = new AbortController();
    (takeEarlyPrint(id, kind) ?? getPrintUrl(id, kind, controller.signal))
      .then(({ url }) => {
        setReady(url);
        window.location.replace(url);
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setNeedsData(err instanceof ApiError && Boolean(err.fieldError(PERSONAL_DATA_FIELD)));
        setFailure(errorMessage(err));
      });
    return () => controller.abort();
  }, [id, kind, valid]);

  return (
    <Center mih="100vh" p="md" bg="gray.0">
      {ready !== null ? (
        <PrintCard testId="print-ready" color="teal" icon={<IconFileCheck size={30} />} title="Документ готов">
          <Text size="sm" c="dimmed">
            Файл открывается или загружается на устройство. Если этого не произошло, откройте его по кнопке ниже.
          </Text>
          <Group justify="center" gap="sm">
            <Button component="a" href={ready}>
              Открыть документ
            </Button>
            <CloseButton />
          </Group>
        </PrintCard>
      ) : failure === null ? (
        <Stack align="center" gap="sm" data-testid="print-loading">
          <Loader />
          <Text c="dimmed">Готовим документ…</Text>
        </Stack>
      ) : (
        <PrintCard testId="print-error" color="red" icon={<IconAlertTriangle size={30} />} title={PrintMessages.error}>
          {/* The spec's hint speaks of a certificate: shown for certificates only, not under a contract or a consent. */}
          {kind.startsWith('certificate') && <Text>{PrintMessages.hint}</Text>}
          {failure && needsData ? (
            <>
              <Text fw={500} data-testid="print-needs-data">
                {failure}
              </Text>
              <Text size="sm" c="dimmed">
                {isOperator(me) ? FILL_WHERE.operator : FILL_WHERE.client}
              </Text>
            </>
          ) : (
            failure && (
              <Text size="sm" c="dimmed">
                {failure}
              </Text>
            )
          )}
          <Group justify="center" gap="sm">
            {needsData && me && !isOperator(me) && (
              <Button component={Link} to="/user/contract" leftSection={<IconUserEdit size={16} />}>
                Заполнить данные
              </Button>
            )}
            <CloseButton />
          </Group>
        </PrintCard>
      )}
    </Center>
  );
}

/** The print tab's answer: a card with its icon, its title and what to do next. */
function PrintCard({ testId, color, icon, title, children }: { testId: string; color: string; icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="xl" maw={520} w="100%" data-testid={testId}>
      <Stack align="center" gap="sm" ta="center">
        <ThemeIcon size={56} radius="xl" color={color} variant="light">
          {icon}
        </ThemeIcon>
        <Title order={2}>{title}</Title>
        {children}
      </Stack>
    </Paper>
  );
}

/** The tab was opened for the document: closing it goes back to the cabinet. */
function CloseButton() {
  return (
    <Button variant="light" onClick={() => window.close()}>
      Закрыть
    </Button>
  );
}
