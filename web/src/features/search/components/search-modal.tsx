import { Badge, Center, CloseButton, Group, Loader, Modal, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { IconCalendarEvent, IconSearch } from '@tabler/icons-react';
import { formatPrice } from '@edu/domain/common/format';
import { Messages } from '@edu/domain/common/messages';
import { SEARCH_DEBOUNCE_MS, SEARCH_HEADING_THRESHOLD, type Service } from '@edu/domain/services/service';
import { paletteColor } from '../../../lib/colors';
import { pointsText } from '../../../lib/text';
import { useSearchServices } from '../api/search-services';
import { WordStartHighlight } from './word-start-highlight';
import classes from './search.module.css';

interface SearchModalProps {
  /** The text of the top-bar field; the modal is open while it is not empty. */
  value: string;
  onChange: (value: string) => void;
  onPick: (service: Service) => void;
}

/** 'Найдено записей: N' below 6 results, 'Последние N записей:' from 6 (spec 01 §2 Search modal). */
export function searchHeading(n: number): string {
  return n < SEARCH_HEADING_THRESHOLD ? `Найдено записей: ${n}` : `Последние ${n} записей:`;
}

export function SearchModal({ value, onChange, onPick }: SearchModalProps) {
  const narrow = useMediaQuery('(max-width: 36em)');
  const [keywords] = useDebouncedValue(value.trim(), SEARCH_DEBOUNCE_MS);
  const search = useSearchServices(keywords);
  // Publications are applied for with the article, not as ordinary entries: not offered here.
  const results = (search.data ?? []).filter((s) => !s.is_publication);
  const words = value.trim().split(/\s+/).filter(Boolean);
  const waiting = keywords !== value.trim() || search.isFetching;

  return (
    // Composed by hand so the dialog itself (not the always-present root) carries the name.
    <Modal.Root opened={value.length > 0} onClose={() => onChange('')} size="lg" fullScreen={narrow} yOffset="8vh" padding="md">
      <Modal.Overlay />
      <Modal.Content aria-label="Поиск услуг">
        <Modal.Body>
          <TextInput
            aria-label="Поиск услуг"
            placeholder="Поиск услуг"
            leftSection={<IconSearch size={16} />}
            rightSection={
              waiting ? <Loader size={14} role="status" aria-label="Загрузка" /> : <CloseButton aria-label="Очистить поиск" onClick={() => onChange('')} />
            }
            value={value}
            onChange={(event) => onChange(event.currentTarget.value)}
            data-autofocus
            size="md"
            radius="xl"
          />
          <Stack gap={4} mt="md" data-testid="search-results">
            {search.isPending && keywords ? (
              <Center py="lg">
                <Loader type="dots" role="status" aria-label="Загрузка" />
              </Center>
            ) : results.length === 0 ? (
              keywords && (
                <Text c="dimmed" ta="center" py="lg">
                  {Messages.nothingFoundSad}
                </Text>
              )
            ) : (
              <>
                <Text size="sm" fw={600} c="dimmed" mb={4}>
                  {searchHeading(results.length)}
                </Text>
                {results.map((service) => (
                  <UnstyledButton key={service.id} className={classes.result} onClick={() => onPick(service)} data-testid="search-result">
                    <Group justify="space-between" wrap="nowrap" align="flex-start" gap="md">
                      <Stack gap={4} style={{ minWidth: 0 }}>
                        {service.type && (
                          <Badge color={paletteColor(service.type.color)} variant="light" tt="none" size="sm">
                            {service.type.fdv}
                          </Badge>
                        )}
                        <WordStartHighlight text={service.title} words={words} fw={600} size="sm" lh={1.35} />
                        {service.begda && service.endda && service.interval_formatted && (
                          <Group gap={4} c="dimmed" wrap="nowrap">
                            <IconCalendarEvent size={14} stroke={1.6} />
                            <Text size="xs">{service.interval_formatted}</Text>
                          </Group>
                        )}
                      </Stack>
                      <Stack gap={0} align="flex-end" style={{ flexShrink: 0 }}>
                        <Text fw={700} size="sm" style={{ whiteSpace: 'nowrap' }}>
                          {formatPrice(service.price)}
                        </Text>
                        {service.points > 0 && (
                          <Text size="xs" c="teal.7" style={{ whiteSpace: 'nowrap' }}>
                            +{pointsText(service.points)}
                          </Text>
                        )}
                      </Stack>
                    </Group>
                  </UnstyledButton>
                ))}
              </>
            )}
          </Stack>
        </Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
