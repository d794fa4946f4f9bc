import { Alert, Button, Group, Text } from '@mantine/core';
import { IconFileDescription } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { CurrentUser } from '@edu/domain/users/current-user';

/** My entries (spec 01 §2): a course client whose contract data are not complete is sent to /user/contract. */
export function ContractDataBanner({ user }: { user: CurrentUser }) {
  if (!user.is_documents_upload_allowed || user.is_contract_allowed) return null;
  return (
    <Alert
      color="blue"
      variant="light"
      mb="lg"
      icon={<IconFileDescription size={20} />}
      title="Заполните данные для договора"
      data-testid="contract-data-banner"
    >
      <Group justify="space-between" gap="sm">
        <Text size="sm">Для обучения на курсах нужны паспортные данные, документы, согласие и подписанный договор.</Text>
        <Button component={Link} to="/user/contract" size="xs" variant="light">
          Данные для договора
        </Button>
      </Group>
    </Alert>
  );
}
