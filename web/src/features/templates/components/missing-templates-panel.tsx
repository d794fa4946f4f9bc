import { Alert, Anchor, Badge, Group, List, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { TemplateType } from '@edu/domain/common/codes';
import type { MissingTemplates } from '@edu/domain/templates/template';
import { useMissingTemplates } from '../api/templates';

const MISSING_LABELS: Record<number, string> = { [TemplateType.certificate]: 'сертификат', [TemplateType.contract]: 'договор' };
const SHOWN = 8;

/**
 * On /manager/templates: what the install cannot print for want of a template (issue 19: the operator
 * sees which services lack which template), and the centre's requisites still empty.
 */
export function MissingTemplatesPanel() {
  const query = useMissingTemplates();
  const m: MissingTemplates | undefined = query.data;
  if (!m) return null;
  if (m.general.length === 0 && m.services_total === 0 && m.requisites.length === 0)
    return (
      <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} data-testid="missing-templates-ok">
        Шаблоны есть для всех услуг: согласие, договоры и сертификаты печатаются.
      </Alert>
    );
  return (
    <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} title="Чего не хватает для печати" data-testid="missing-templates">
      <Stack gap="xs">
        {m.general.length > 0 && <Text size="sm">Нет шаблонов: {m.general.map((g) => g.title).join('; ')}. Клиенты увидят «будет доступно позже».</Text>}
        {m.services_total > 0 && (
          <div>
            <Text size="sm">Услуги без шаблона ({m.services_total}):</Text>
            <List size="sm" spacing={2} mt={4}>
              {m.services.slice(0, SHOWN).map((s) => (
                <List.Item key={s.id}>
                  <Group gap={6} wrap="wrap">
                    <Anchor component={Link} to={`/manager/service/${s.id}`} size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {s.title}
                    </Anchor>
                    <Text size="xs" c="dimmed">
                      {s.type}
                    </Text>
                    {s.missing.map((type) => (
                      <Badge key={type} size="xs" color="orange" variant="light">
                        нет шаблона: {MISSING_LABELS[type] ?? type}
                      </Badge>
                    ))}
                  </Group>
                </List.Item>
              ))}
            </List>
            {m.services_total > SHOWN && (
              <Text size="xs" c="dimmed" mt={4}>
                и ещё {m.services_total - SHOWN}
              </Text>
            )}
          </div>
        )}
        {m.requisites.length > 0 && (
          <Text size="sm">
            Не заполнены реквизиты центра ({m.requisites.join(', ')}): в документах вместо них будет пустая строка «______».{' '}
            <Anchor component={Link} to="/manager/macroses" size="sm">
              Заполнить реквизиты
            </Anchor>
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
