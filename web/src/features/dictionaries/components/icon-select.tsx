import { ColorSwatch, Group, Select, Text, type SelectProps } from '@mantine/core';
import { Messages } from '@edu/domain/common/messages';
import { iconTitle, PALETTE_COLORS, SERVICE_ICON_NAMES } from '@edu/domain/dictionaries/icons';
import { NamedIcon } from '../../../components/named-icon';

const iconOptions = SERVICE_ICON_NAMES.map((name) => ({ value: name, label: iconTitle(name) }));

/** The icon of a type, chosen from the set by its Russian name with a preview of each. */
export function IconSelect(props: Omit<SelectProps, 'data'>) {
  return (
    <Select
      {...props}
      data={iconOptions}
      searchable
      clearable
      nothingFoundMessage={Messages.nothingFound}
      leftSection={props.value ? <NamedIcon name={props.value} size={18} /> : undefined}
      renderOption={({ option }) => (
        <Group gap="sm" wrap="nowrap">
          <NamedIcon name={option.value} size={18} />
          <Text size="sm">{option.label}</Text>
        </Group>
      )}
    />
  );
}

/** Russian names of the palette colours. */
export const COLOR_NAMES: Record<string, string> = {
  gray: 'Серый',
  red: 'Красный',
  pink: 'Розовый',
  grape: 'Сиреневый',
  violet: 'Фиолетовый',
  indigo: 'Индиго',
  blue: 'Синий',
  cyan: 'Голубой',
  teal: 'Бирюзовый',
  green: 'Зелёный',
  lime: 'Салатовый',
  yellow: 'Жёлтый',
  orange: 'Оранжевый',
};

const colorOptions = PALETTE_COLORS.map((c) => ({ value: c, label: COLOR_NAMES[c] ?? c }));

/** A colour of the theme's palette, shown as a swatch. */
export function ColorSelect(props: Omit<SelectProps, 'data'>) {
  return (
    <Select
      {...props}
      data={colorOptions}
      clearable
      leftSection={props.value ? <ColorSwatch color={`var(--mantine-color-${props.value}-6)`} size={16} /> : undefined}
      renderOption={({ option }) => (
        <Group gap="sm" wrap="nowrap">
          <ColorSwatch color={`var(--mantine-color-${option.value}-6)`} size={16} />
          <Text size="sm">{option.label}</Text>
        </Group>
      )}
    />
  );
}
