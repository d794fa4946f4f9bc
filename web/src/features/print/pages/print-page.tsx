import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { Button, Center, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { PRINT_KINDS, PrintMessages } from '@edu/domain/documents/print';
import { errorMessage } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { getPrintUrl } from '../api/get-print-url';

/**
 * /entry/:id?/print/:type? (spec 03 §2 Print page): asks for the document and goes to its url; on
 * failure 'Ошибка!' with the hint to contact the operator (spec 03 §8) and the server's reason.
 */
export function PrintPage() {
  useDocumentTitle('Печать');
  const { id, type } = useParams();
  const [fetchFailure, setFailure] = useState<string | null>(null);
  const kind = type ?? 'certificate';
  const valid = Boolean(id) && (kind === 'consent' || (PRINT_KINDS as readonly string[]).includes(kind));
  const failure = valid ? fetchFailure : '';

  useEffect(() => {
    if (!valid || !id) return;
    const controller = new AbortController();
    getPrintUrl(id, kind, controller.signal)
      .then(({ url }) => window.location.replace(url))
      .catch((err: unknown) => {
        if (!controller.signal.aborted) setFailure(errorMessage(err));
      });
    return () => controller.abort();
  }, [id, kind, valid]);

  return (
    <Center mih="100vh" p="md" bg="gray.0">
      {failure === null ? (
        <Stack align="center" gap="sm" data-testid="print-loading">
          <Loader />
          <Text c="dimmed">Готовим документ…</Text>
        </Stack>
      ) : (
        <Paper withBorder radius="md" p="xl" maw={520} w="100%" data-testid="print-error">
          <Stack align="center" gap="sm" ta="center">
            <ThemeIcon size={56} radius="xl" color="red" variant="light">
              <IconAlertTriangle size={30} />
            </ThemeIcon>
            <Title order={2}>{PrintMessages.error}</Title>
            {/* The spec's hint speaks of a certificate: shown for certificates only, not under a contract or a consent. */}
            {kind.startsWith('certificate') && <Text>{PrintMessages.hint}</Text>}
            {failure && (
              <Text size="sm" c="dimmed">
                {failure}
              </Text>
            )}
            <Button variant="light" onClick={() => window.close()}>
              Закрыть
            </Button>
          </Stack>
        </Paper>
      )}
    </Center>
  );
}
