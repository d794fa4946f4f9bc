import { Alert, Anchor, Text } from '@mantine/core';
import { IconArchive } from '@tabler/icons-react';
import { OLD_CABINET_YEARS } from '@edu/domain/common/messages';
import { useOldCabinetUrl } from '../../../lib/public-config';

/** Earlier certificates and services stay in the old cabinet (spec 01 §1). */
export function LegacyNotice() {
  const oldCabinetUrl = useOldCabinetUrl();
  return (
    <Alert variant="light" color="gray" radius="md" icon={<IconArchive size={20} />} title="Старый личный кабинет">
      <Text size="sm">Сертификаты и услуги, полученные ранее, доступны в старом личном кабинете в течение {OLD_CABINET_YEARS} лет.</Text>
      <Anchor href={oldCabinetUrl} target="_blank" rel="noopener noreferrer" size="sm" fw={500}>
        Перейти в старый личный кабинет
      </Anchor>
    </Alert>
  );
}
