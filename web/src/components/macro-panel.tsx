import { useState } from 'react';
import { Accordion, Badge, Group, ScrollArea, Skeleton, Stack, Text, TextInput, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { matchesMacro, useMacros, type MacroItem } from '../lib/macros';
import { notifySuccess } from '../lib/notify';

export const COPIED = 'Скопировано в буфер обмена';
export const MACRO_SEARCH = 'Поиск по названию или описанию';

/** One macro: click copies it; `onPick` also inserts it into the editor beside. */
export function MacroButton({ macro, onPick }: { macro: MacroItem; onPick?: (text: string) => void }) {
  const clipboard = useClipboard({ timeout: 800 });
  return (
    <UnstyledButton
      onClick={() => {
        clipboard.copy(macro.fdv);
        onPick?.(macro.fdv);
        notifySuccess(COPIED);
      }}
      p={6}
      style={{ borderRadius: 6, display: 'block', width: '100%' }}
      className="macro-button"
      data-testid="macro"
    >
      {/* The name is what is seen after the verb (label in name, WCAG 2.5.3): «Скопировать ${user.fio} ФИО …». */}
      <VisuallyHidden>Скопировать</VisuallyHidden>{' '}
      <Text ff="monospace" size="sm" c="blue.8" style={{ wordBreak: 'break-all' }}>
        {macro.fdv}
      </Text>
      {macro.description && (
        <Text size="xs" c="dimmed">
          {macro.description}
        </Text>
      )}
    </UnstyledButton>
  );
}

/**
 * The macro list beside a template editor: the categories a template type offers (and, with
 * `include`, only the macros that kind of text can fill), with search; a click copies the macro (and
 * hands it to `onPick`).
 */
export function MacroPanel({
  categories,
  include,
  onPick,
  height = 460,
}: {
  categories?: number[];
  include?: (fdv: string) => boolean;
  onPick?: (text: string) => void;
  height?: number;
}) {
  const { data, isLoading } = useMacros();
  const [search, setSearch] = useState('');
  const shown = (data ?? [])
    .filter((c) => !categories || categories.length === 0 || categories.includes(c.id))
    .map((c) => (include ? { ...c, macros: c.macros.filter((m) => include(m.fdv)) } : c))
    .filter((c) => !include || c.macros.length > 0);
  return (
    <Stack gap="xs" data-testid="macro-panel">
      <Text fw={600} size="sm">
        Макросы
      </Text>
      <TextInput
        size="xs"
        placeholder={MACRO_SEARCH}
        leftSection={<IconSearch size={14} />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
      />
      {isLoading ? (
        <Skeleton h={200} />
      ) : (
        <ScrollArea.Autosize mah={height} type="auto">
          <Accordion multiple defaultValue={shown.map((c) => String(c.id))} variant="contained" chevronPosition="right">
            {shown.map((c) => {
              const macros = c.macros.filter((m) => matchesMacro(m, search));
              return (
                <Accordion.Item key={c.id} value={String(c.id)}>
                  <Accordion.Control>
                    <Group gap={6}>
                      <Text size="sm">{c.fdv}</Text>
                      <Badge size="xs" variant="light">
                        {macros.length}
                      </Badge>
                    </Group>
                  </Accordion.Control>
                  <Accordion.Panel>
                    {macros.length === 0 ? (
                      <Text size="xs" c="dimmed">
                        Ничего не найдено
                      </Text>
                    ) : (
                      macros.map((m) => <MacroButton key={m.id} macro={m} onPick={onPick} />)
                    )}
                  </Accordion.Panel>
                </Accordion.Item>
              );
            })}
          </Accordion>
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}
