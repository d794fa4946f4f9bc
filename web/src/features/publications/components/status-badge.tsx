import { Badge } from '@mantine/core';
import { publicationStatusLabels } from '@edu/domain/common/codes';
import { publicationStatusColors } from '@edu/domain/publications/publication';

/** The publication status as a badge (spec 03 §4). */
export function PublicationStatusBadge({ status, label, color }: { status: number; label?: string; color?: string }) {
  return (
    <Badge color={color || publicationStatusColors[status] || 'gray'} variant="light" data-testid="publication-status">
      {label || publicationStatusLabels[status] || String(status)}
    </Badge>
  );
}
