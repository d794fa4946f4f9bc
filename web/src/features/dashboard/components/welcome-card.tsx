import type { ReactNode } from 'react';
import { Alert, Anchor, Avatar, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { CurrentUser } from '@edu/domain/users/current-user';
import { ProfileMessages } from '@edu/domain/users/profile';

/** Welcome, role label, avatar (the upload button when given) and work profiles. */
export function WelcomeCard({ user, avatar }: { user: CurrentUser; avatar?: ReactNode }) {
  return (
    <Paper p="lg" radius="lg">
      <Group wrap="nowrap" align="center" gap="lg">
        {avatar ?? (
          <Avatar src={user.avatar_url ?? undefined} size={72} radius={72} color="indigo" variant="light" alt={user.fio}>
            <Text fz={26} fw={700} inherit>
              {user.initials}
            </Text>
          </Avatar>
        )}
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Text size="sm" c="dimmed">
            Добро пожаловать!
          </Text>
          <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
            {user.fio}
          </Title>
          <Group gap={6}>
            <Badge variant="light" color="indigo" tt="none" size="md">
              {user.role_label}
            </Badge>
            {user.profiles.map((profile) => (
              <Badge key={profile.id} variant="dot" color={profile.color ?? 'gray'} tt="none" size="md" maw="100%">
                {profile.fdv}
              </Badge>
            ))}
          </Group>
        </Stack>
      </Group>
      {user.profiles.length === 0 && (
        <Alert color="red" variant="light" mt="md" title={ProfileMessages.fillProfiles} data-testid="fill-profiles">
          <Text size="sm">
            Укажите профили работы в{' '}
            <Anchor component={Link} to="/user/profile" size="sm" fw={600}>
              профиле
            </Anchor>
            , чтобы мы подбирали подходящие услуги.
          </Text>
        </Alert>
      )}
    </Paper>
  );
}
