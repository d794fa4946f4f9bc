import { Badge } from '@mantine/core';
import { publicationStatusLabels } from '@edu/domain/common/codes';

const COLORS: Record<number, string> = { 0: 'red', 1: 'yellow', 2: 'teal', 3: 'orange', 4: 'blue', 5: 'violet' };

/** The publication status as a badge (spec 03 §4). */
export function PublicationStatusBadge({ status, label, color }: { status: number; label?: string; color?: string }) {
  return (
    <Badge color={color || COLORS[status] || 'gray'} variant="light" data-testid="publication-status">
      {label || publicationStatusLabels[status] || String(status)}
    </Badge>
  );
}
