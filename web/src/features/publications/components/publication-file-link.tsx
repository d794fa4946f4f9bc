import { Anchor, Group } from '@mantine/core';
import { IconFileText } from '@tabler/icons-react';
import { errorMessage } from '../../../lib/api-client';
import { notifyError } from '../../../lib/notify';
import { downloadPrivateFile } from '../../../lib/private-file';
import type { PublicationFile } from '../api/types';

/** The publication's file, downloaded with the session token from the authorised file route. */
export function PublicationFileLink({ file }: { file: PublicationFile }) {
  return (
    <Group gap={6} wrap="nowrap">
      <IconFileText size={16} />
      <Anchor
        component="button"
        type="button"
        size="sm"
        onClick={(e) => {
          e.stopPropagation();
          downloadPrivateFile(file.url, file.name).catch((error: unknown) => notifyError(errorMessage(error)));
        }}
      >
        {file.name || 'Файл публикации'}
      </Anchor>
    </Group>
  );
}
