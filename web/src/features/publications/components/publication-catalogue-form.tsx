import { Paper, Text, Title } from '@mantine/core';
import { PublicationCreateForm } from './publication-create-modal';

/**
 * The catalogue's publication subtype (spec 01 catalogue, spec 02 §2): a publication entry form
 * with the price instead of the service list. After sending, the user pays it from 'Мои публикации'.
 */
export function PublicationCatalogueForm({ subtypeId, onDone }: { subtypeId: number; onDone: () => void }) {
  return (
    <Paper withBorder p="md" radius="md" data-testid="publication-catalogue-form">
      <Title order={4} mb={4}>
        Заявка на публикацию
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Заполните форму: после отправки заявку можно оплатить в разделе «Мои публикации».
      </Text>
      <PublicationCreateForm key={subtypeId} subtypeId={subtypeId} onDone={onDone} />
    </Paper>
  );
}
