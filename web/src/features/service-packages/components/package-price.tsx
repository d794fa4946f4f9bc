import { Group, Text } from '@mantine/core';
import { formatRub } from '@edu/domain/common/format';
import type { ServicePackage } from '@edu/domain/service-packages/service-package';
import { pointsText } from '../../../lib/text';

/** Price, the old price struck through, and points. */
export function PackagePrice({ pkg }: { pkg: ServicePackage }) {
  return (
    <Group gap="sm" align="baseline">
      <Text fw={700} fz={24} lh={1.1}>
        {formatRub(pkg.price)}
      </Text>
      {pkg.oldPrice !== null && pkg.oldPrice > pkg.price && (
        <Text c="dimmed" td="line-through" aria-label={`Цена без скидки ${formatRub(pkg.oldPrice)}`}>
          {formatRub(pkg.oldPrice)}
        </Text>
      )}
      {pkg.points > 0 && (
        <Text c="teal.7" size="sm" fw={500}>
          +{pointsText(pkg.points)}
        </Text>
      )}
    </Group>
  );
}
