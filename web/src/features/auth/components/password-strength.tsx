import { useEffect, useState } from 'react';
import { Group, Progress, Stack, Text } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { Messages, passwordStrengthLabels } from '@edu/domain/common/messages';
import { PASSWORD_MIN_LENGTH } from '@edu/domain/auth/register';
import { loadPasswordScorer, type PasswordScore } from './password-scorer';

const scoreColors = ['red', 'orange', 'yellow', 'teal', 'green'] as const;

/** Strength meter 0..4 (zxcvbn) plus the two hints of spec 01 §5. */
export function PasswordStrength({ password, confirmation, userInputs }: { password: string; confirmation: string; userInputs: string[] }) {
  const score = usePasswordScore(password, userInputs);
  const longEnough = password.length >= PASSWORD_MIN_LENGTH;
  const touched = password.length > 0;
  const match = password.length > 0 && password === confirmation;

  return (
    <Stack gap={6} aria-live="polite">
      <Group gap="sm" wrap="nowrap" align="center">
        <Progress
          value={password && score !== null ? (score + 1) * 20 : 0}
          color={score !== null ? scoreColors[score] : 'gray'}
          size="sm"
          radius="xl"
          style={{ flex: 1 }}
          aria-label="Надёжность пароля"
        />
        <Text size="xs" c="dimmed" miw={150} ta="right" data-testid="password-strength">
          {password && score !== null ? `Надёжность: ${passwordStrengthLabels[score]}` : 'Надёжность пароля'}
        </Text>
      </Group>
      <Hint ok={longEnough} neutral={!touched} text={Messages.passwordMinLength} />
      {/* Whether the two agree is said once the confirmation is typed into, never on an untouched form. */}
      {confirmation.length > 0 && <Hint ok={match} text={match ? Messages.passwordsMatch : Messages.passwordsDontMatch} />}
    </Stack>
  );
}

function Hint({ ok, text, neutral = false }: { ok: boolean; text: string; neutral?: boolean }) {
  const color = neutral ? 'dimmed' : ok ? 'teal.7' : 'red.7';
  return (
    <Group gap={6} wrap="nowrap">
      <Text c={color} lh={0} component="span" aria-hidden>
        {ok ? <IconCheck size={14} /> : <IconX size={14} />}
      </Text>
      <Text size="sm" c={color}>
        {text}
      </Text>
    </Group>
  );
}

function usePasswordScore(password: string, userInputs: string[]): PasswordScore | null {
  const [state, setState] = useState<{ password: string; score: PasswordScore } | null>(null);
  const inputsKey = userInputs.join('\u0000');

  useEffect(() => {
    if (!password) return;
    let cancelled = false;
    loadPasswordScorer()
      .then((score) => {
        if (!cancelled) setState({ password, score: score(password, inputsKey ? inputsKey.split('\u0000') : []) });
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [password, inputsKey]);

  // Keeps the last score while the next one computes, so the meter does not flicker.
  return password && state ? state.score : null;
}
