import { Chip, Group } from '@mantine/core';
import type { ServiceSubtypeItem } from '../../../lib/dictionaries';
import { pointsText } from '../../../lib/text';

interface SubtypePickerProps {
  subtypes: ServiceSubtypeItem[];
  value: number | null;
  onChange: (id: number | null) => void;
  /** The chip 'Все виды' (the catalogue); the operator's screen picks one subtype. */
  showAll?: boolean;
}

/** Long subtype names wrap inside a narrow screen instead of widening the page. */
const WRAP = { label: { whiteSpace: 'normal', height: 'auto', minHeight: 30, lineHeight: 1.3, paddingBlock: 4 } } as const;

/** Subtypes of the chosen type; points are shown when above zero. */
export function SubtypePicker({ subtypes, value, onChange, showAll = true }: SubtypePickerProps) {
  if (subtypes.length === 0) return null;
  return (
    <Chip.Group multiple={false} value={value === null ? 'all' : String(value)} onChange={(v) => onChange(v === 'all' ? null : Number(v))}>
      <Group gap={8} role="radiogroup" aria-label="Вид услуги">
        {showAll && (
          <Chip value="all" variant="outline" size="sm">
            Все виды
          </Chip>
        )}
        {subtypes.map((subtype) => (
          <Chip key={subtype.id} value={String(subtype.id)} variant="outline" size="sm" maw="100%" styles={WRAP}>
            {subtype.fdv}
            {subtype.points > 0 ? ` · ${pointsText(subtype.points)}` : ''}
          </Chip>
        ))}
      </Group>
    </Chip.Group>
  );
}
