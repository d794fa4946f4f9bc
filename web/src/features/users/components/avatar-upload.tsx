import { Avatar, Box, FileButton, Loader, Overlay, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconCamera } from '@tabler/icons-react';
import type { CurrentUser } from '@edu/domain/users/current-user';
import { ProfileMessages, UPLOAD_MAX_BYTES } from '@edu/domain/users/profile';
import { errorMessage } from '../../../lib/api-client';
import { fieldErrorsOf } from '../../../lib/field-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useUploadAvatar } from '../api/upload-avatar';
import classes from './avatar-upload.module.css';

const IMAGE_TYPES = ['image/jpeg', 'image/png'];

/** The user's picture; a click chooses a jpg or png to upload (stored as 180 by 180). */
export function AvatarUpload({ user, size = 96 }: { user: CurrentUser; size?: number }) {
  const upload = useUploadAvatar();

  async function choose(file: File | null) {
    if (!file) return;
    if (!IMAGE_TYPES.includes(file.type)) return notifyError(ProfileMessages.avatarType);
    if (file.size > UPLOAD_MAX_BYTES) return notifyError(ProfileMessages.fileTooLarge);
    try {
      const answer = await upload.mutateAsync({ id: user.id, file });
      notifySuccess(answer.message);
    } catch (error) {
      notifyError(fieldErrorsOf(error).file ?? errorMessage(error));
    }
  }

  return (
    <FileButton onChange={(file) => void choose(file)} accept={IMAGE_TYPES.join(',')}>
      {(props) => (
        <Tooltip label="Изменить фото" openDelay={300}>
          <UnstyledButton
            {...props}
            className={classes.button}
            style={{ width: size, height: size }}
            aria-label={`Изменить фото профиля ${user.initials}`}
            disabled={upload.isPending}
          >
            <Avatar src={user.avatar_url ?? undefined} size={size} radius={size} color="indigo" variant="light" alt={user.fio} data-testid="user-avatar">
              <Text fz={size / 3} fw={700} inherit>
                {user.initials}
              </Text>
            </Avatar>
            <Box className={classes.badge}>
              <IconCamera size={Math.max(14, size / 7)} stroke={1.8} />
            </Box>
            {upload.isPending && (
              <Overlay radius={size} center backgroundOpacity={0.35}>
                <Loader size="sm" color="white" />
              </Overlay>
            )}
          </UnstyledButton>
        </Tooltip>
      )}
    </FileButton>
  );
}
