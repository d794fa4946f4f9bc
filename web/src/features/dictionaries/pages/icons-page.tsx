import { useState } from 'react';
import { Badge, Group, Paper, SimpleGrid, Stack, Text, TextInput, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { Messages } from '@edu/domain/common/messages';
import { iconTitle, PALETTE_COLORS, SERVICE_ICON_NAMES } from '@edu/domain/dictionaries/icons';
import { EmptyList } from '../../../components/list-states';
import { NamedIcon } from '../../../components/named-icon';
import { useDictionary } from '../../../lib/dictionaries';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { COLOR_NAMES } from '../components/icon-select';

/**
 * /manager/icons: the spec shows nothing here; this is the icon set service types choose from, with
 * a search by Russian name or type, which types use each icon, and a preview in the palette. A
 * click shows the icon in the preview.
 */
export function IconsPage() {
  useDocumentTitle('Иконки');
  const types = useDictionary('dict_service_types');
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<string>(SERVICE_ICON_NAMES[0]);
  const needle = search.trim().toLowerCase();
  const usedBy = (name: string) => (types.data ?? []).filter((t) => t.icon === name).map((t) => t.fdv);
  /** What the tile says about the icon's use: the one type, or how many. */
  const usedText = (name: string) => {
    const used = usedBy(name);
    return used.length === 0 ? '' : used.length === 1 ? (used[0] ?? '') : `типов: ${used.length}`;
  };
  const shown = SERVICE_ICON_NAMES.filter(
    (n) => !needle || iconTitle(n).toLowerCase().includes(needle) || usedBy(n).some((f) => f.toLowerCase().includes(needle)),
  );

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Group align="baseline" gap="md">
          <Title order={2}>Иконки</Title>
          <Text size="sm" c="dimmed">
            Набор иконок типов услуг: {SERVICE_ICON_NAMES.length}
          </Text>
        </Group>
        <TextInput
          aria-label="Поиск иконки"
          placeholder="Название иконки или типа услуги"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          w={300}
        />
      </Group>
      <Paper p="md" radius="md" data-testid="icon-preview">
        <Group gap="lg" align="center" wrap="wrap">
          <ThemeIcon size={72} radius="md" variant="light" color="blue">
            <NamedIcon name={picked} size={44} />
          </ThemeIcon>
          <Stack gap={4}>
            <Text fw={600}>{iconTitle(picked)}</Text>
            <Text size="sm" c="dimmed">
              {usedBy(picked).length ? `Используется: ${usedBy(picked).join(', ')}` : 'Пока не используется'}
            </Text>
            <Group gap={6}>
              {PALETTE_COLORS.map((c) => (
                <ThemeIcon key={c} size={30} radius="md" variant="light" color={c} title={COLOR_NAMES[c] ?? c}>
                  <NamedIcon name={picked} size={18} />
                </ThemeIcon>
              ))}
            </Group>
          </Stack>
        </Group>
      </Paper>
      {shown.length === 0 ? (
        <EmptyList text={Messages.nothingFound} />
      ) : (
        <SimpleGrid cols={{ base: 2, xs: 3, sm: 4, md: 6, xl: 8 }} spacing="sm">
          {shown.map((name) => (
            // The name holds what the tile shows (label in name, WCAG 2.5.3).
            <UnstyledButton
              key={name}
              onClick={() => setPicked(name)}
              aria-label={`Иконка «${iconTitle(name)}» ${usedText(name)}`.trim()}
              data-testid="icon-tile"
              h="100%"
            >
              <Paper p="sm" radius="md" withBorder h="100%" mih={104} style={{ borderColor: name === picked ? 'var(--mantine-color-blue-5)' : undefined }}>
                <Stack gap={6} align="center" justify="center" h="100%">
                  <NamedIcon name={name} size={28} />
                  <Text size="xs" ta="center" lineClamp={1}>
                    {iconTitle(name)}
                  </Text>{' '}
                  {usedBy(name).length > 0 && (
                    <Badge size="xs" variant="light" tt="none">
                      {usedText(name)}
                    </Badge>
                  )}
                </Stack>
              </Paper>
            </UnstyledButton>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
