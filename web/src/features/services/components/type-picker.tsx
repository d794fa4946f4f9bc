import { Flex, Paper, SimpleGrid, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import type { ServiceTypeItem } from '../../../lib/dictionaries';
import { paletteColor } from '../../../lib/colors';
import { pointsText } from '../../../lib/text';
import { NamedIcon } from '../../../components/named-icon';
import classes from './catalogue.module.css';

interface TypePickerProps {
  types: ServiceTypeItem[];
  /** The highest points of each type's services, by type id ('до N баллов'). */
  points?: Record<string, number>;
  value: number | null;
  onChange: (id: number | null) => void;
  /** The first card 'Все услуги' (the catalogue); the operator's screen picks one type. */
  showAll?: boolean;
}

/** Service types as cards with their icon and colour; the first card shows every type. */
export function TypePicker({ types, points = {}, value, onChange, showAll = true }: TypePickerProps) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }} spacing="sm" verticalSpacing="sm" role="radiogroup" aria-label="Тип услуги">
      {showAll && <TypeCard label="Все услуги" icon="IconCategory" color="gray" active={value === null} onClick={() => onChange(null)} />}
      {types.map((type) => (
        <TypeCard
          key={type.id}
          label={type.fdv}
          icon={type.icon}
          color={paletteColor(type.color)}
          note={(points[String(type.id)] ?? 0) > 0 ? `до ${pointsText(points[String(type.id)] ?? 0)}` : undefined}
          active={value === type.id}
          onClick={() => onChange(type.id)}
        />
      ))}
    </SimpleGrid>
  );
}

interface TypeCardProps {
  label: string;
  icon: string | null;
  color: string;
  note?: string;
  active: boolean;
  onClick: () => void;
}

function TypeCard({ label, icon, color, note, active, onClick }: TypeCardProps) {
  return (
    <UnstyledButton role="radio" aria-checked={active} onClick={onClick} className={classes.typeButton}>
      <Paper
        p={{ base: 'xs', sm: 'sm' }}
        radius="md"
        className={classes.typeCard}
        data-active={active || undefined}
        style={{ '--type-color': `var(--mantine-color-${color}-6)` } as React.CSSProperties}
      >
        <Flex gap={{ base: 8, xs: 'sm' }} direction={{ base: 'column', xs: 'row' }} align={{ base: 'flex-start', xs: 'center' }}>
          <ThemeIcon color={color} variant={active ? 'filled' : 'light'} size={36} radius="md">
            <NamedIcon name={icon} size={20} />
          </ThemeIcon>
          <div style={{ minWidth: 0 }}>
            <Text size="sm" fw={600} lh={1.25} className={classes.typeLabel}>
              {label}
            </Text>
            {note && (
              <Text size="xs" c="dimmed">
                {note}
              </Text>
            )}
          </div>
        </Flex>
      </Paper>
    </UnstyledButton>
  );
}
