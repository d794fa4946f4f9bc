import { Alert, Badge, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { DOCUMENT_KINDS, REQUIRED_DOCUMENT_KINDS } from '@edu/domain/documents/documents';
import { errorMessage } from '../../../lib/api-client';
import { isoToRuDate } from '../../../components/masked-input';
import { useContractData } from '../api/get-contract-data';
import { useDocuments } from '../api/get-documents';
import { useIdentityDocument } from '../api/identity-document';
import { useProfileExtras } from '../api/profile-extras';
import { DocumentKindField } from './document-kind-field';

function Item({ label, value }: { label: string; value: string | null | undefined }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
        {value || '—'}
      </Text>
    </Stack>
  );
}

/** A client's contract data as an operator sees them (read-only): personal data, passport, every document. */
export function ClientDocuments({ userId }: { userId: number }) {
  const state = useContractData(userId);
  const extras = useProfileExtras(userId);
  const passport = useIdentityDocument(userId);
  const docs = useDocuments(userId);
  const failed = [state, extras, passport, docs].find((q) => q.isError);
  if (failed) return <Alert color="red">{errorMessage(failed.error)}</Alert>;
  if (!state.data || !extras.data || passport.isPending || !docs.data) return <Skeleton h={260} />;
  return (
    <Stack gap="md" data-testid="client-documents">
      <Group gap="xs">
        <Badge color={state.data.is_contract_allowed ? 'teal' : 'orange'} variant="light">
          {state.data.is_contract_allowed ? 'Данные заполнены' : 'Данные не заполнены'}
        </Badge>
      </Group>
      <Title order={4} size="h6">
        Личные данные
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <Item label="Адрес" value={extras.data.address} />
        <Item label="Дата рождения" value={isoToRuDate(extras.data.birthday)} />
        <Item label="СНИЛС" value={extras.data.snils} />
      </SimpleGrid>
      <Title order={4} size="h6">
        Паспорт
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <Item label="Серия и номер" value={passport.data?.number} />
        <Item label="Дата выдачи" value={isoToRuDate(passport.data?.date)} />
        <Item label="Кем выдан" value={passport.data?.issued_by} />
      </SimpleGrid>
      <Title order={4} size="h6">
        Документы
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {DOCUMENT_KINDS.map((k) => (
          <DocumentKindField key={k} kind={k} saved={docs.data[k]} pending={[]} readOnly required={REQUIRED_DOCUMENT_KINDS.includes(k) || k === 'consent'} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
