import { Badge, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck, IconCircleDashed } from '@tabler/icons-react';
import { Link } from 'react-router';
import { DocumentMessages } from '@edu/domain/documents/documents';
import type { CurrentUser } from '@edu/domain/users/current-user';
import { useContractData } from '../api/get-contract-data';

function Row({ done, label }: { done: boolean; label: string }) {
  return (
    <Group gap={6} wrap="nowrap" align="flex-start">
      {done ? (
        <IconCircleCheck size={18} color="var(--mantine-color-teal-6)" style={{ flex: 'none' }} />
      ) : (
        <IconCircleDashed size={18} color="var(--mantine-color-gray-5)" style={{ flex: 'none' }} />
      )}
      <Text size="sm">{label}</Text>
    </Group>
  );
}

/** The profile's documents card (spec 01 §2 Profile): only for clients of courses (is_documents_upload_allowed). */
export function DocumentsCard({ user }: { user: CurrentUser }) {
  const state = useContractData(user.id);
  if (!user.is_documents_upload_allowed) return null;
  return (
    <Paper p="lg" radius="lg" data-testid="documents-card">
      <Group justify="space-between" mb="sm">
        <Title order={3} size="h5">
          Документы для договора
        </Title>
        {state.data && (
          <Badge color={state.data.is_contract_allowed ? 'teal' : 'orange'} variant="light">
            {state.data.is_contract_allowed ? 'Заполнено' : 'Не заполнено'}
          </Badge>
        )}
      </Group>
      {!state.data ? (
        <Skeleton h={90} />
      ) : (
        <Stack gap={6}>
          <Row done={state.data.profile_valid} label="Личные данные: адрес, дата рождения, СНИЛС" />
          <Row done={state.data.passport_valid} label="Паспортные данные" />
          <Row done={state.data.documents_valid} label="Паспорт, документ об образовании, СНИЛС" />
          <Row done={state.data.consent_valid} label="Подписанное согласие" />
          {!state.data.is_contract_allowed && (
            <Text size="xs" c="dimmed" mt={4}>
              {DocumentMessages.fillAllForContract}
            </Text>
          )}
        </Stack>
      )}
      <Button component={Link} to="/user/contract" variant="light" mt="md" fullWidth>
        Данные для договора
      </Button>
    </Paper>
  );
}
