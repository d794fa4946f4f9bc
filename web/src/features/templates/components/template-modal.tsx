import { lazy, Suspense, useRef, useState } from 'react';
import { Alert, Anchor, Button, FileInput, Grid, Group, Modal, Select, Skeleton, Stack, Tabs, Text, Textarea, TextInput } from '@mantine/core';
import { IconFileTypeDocx, IconInfoCircle } from '@tabler/icons-react';
import type { Editor } from '@tiptap/react';
import { DOCX_ACCEPT } from '@edu/domain/documents/files';
import { templateEditor, type Template } from '@edu/domain/templates/template';
import { MacroPanel } from '../../../components/macro-panel';
import { errorMessage } from '../../../lib/api-client';
import { fieldErrorsOf } from '../../../lib/field-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useNarrow } from '../../../lib/use-narrow';
import { downloadTemplateFile, useSaveTemplate, useTemplate } from '../api/templates';
import { focusFirstInvalid } from '../../../lib/focus-invalid';

const RichEditor = lazy(() => import('./rich-editor').then((m) => ({ default: m.RichEditor })));

export interface TemplateTypeOption {
  id: number;
  fdv: string;
  available_categories: number[];
}

interface Props {
  opened: boolean;
  onClose: () => void;
  /** null: a new template of `typeId`. */
  templateId: number | null;
  typeId: number;
  types: TemplateTypeOption[];
}

/**
 * 'Шаблон' modal (spec 02 §2 Template modal): the content as a .docx upload (certificate, consent,
 * contract), raw HTML with a preview (program, registration list) or rich text (others); the macros
 * of the type's categories beside the editor.
 */
export function TemplateModal({ opened, onClose, templateId, typeId, types }: Props) {
  const narrow = useNarrow();
  const existing = useTemplate(opened ? templateId : null);
  const ready = templateId === null || Boolean(existing.data);
  return (
    <Modal opened={opened} onClose={onClose} title="Шаблон" size={narrow ? '100%' : 1100} fullScreen={narrow}>
      {opened && ready ? (
        <TemplateForm key={templateId ?? 'new'} template={templateId === null ? null : existing.data!} typeId={typeId} types={types} onClose={onClose} />
      ) : (
        <Skeleton h={420} />
      )}
    </Modal>
  );
}

function TemplateForm({ template, typeId, types, onClose }: { template: Template | null; typeId: number; types: TemplateTypeOption[]; onClose: () => void }) {
  const narrow = useNarrow();
  const templateId = template?.id ?? null;
  const save = useSaveTemplate();
  const [title, setTitle] = useState(template?.title ?? '');
  const [type, setType] = useState<number>(template?.dict_type_id ?? typeId);
  const [content, setContent] = useState(template?.content ?? '');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [htmlTab, setHtmlTab] = useState<string | null>('html');
  const textarea = useRef<HTMLTextAreaElement>(null);
  const editor = useRef<Editor | null>(null);

  const kind = templateEditor(type);
  const changeContent = (html: string) => {
    setContent(html);
    if (errors.content) setErrors(({ content: _dropped, ...rest }) => rest);
  };
  const categories = types.find((t) => t.id === type)?.available_categories ?? [];

  const insert = (text: string) => {
    if (kind === 'rich' && editor.current) {
      editor.current.chain().focus().insertContent(text).run();
    } else if (kind === 'html' && textarea.current) {
      const el = textarea.current;
      const start = el.selectionStart ?? content.length;
      const end = el.selectionEnd ?? content.length;
      setContent(content.slice(0, start) + text + content.slice(end));
      requestAnimationFrame(() => {
        el.focus();
        el.setSelectionRange(start + text.length, start + text.length);
      });
    }
  };

  const submit = () => {
    save.mutate(
      { id: templateId, title, dict_type_id: type, content, file },
      {
        onSuccess: (r) => {
          notifySuccess(r.message);
          onClose();
        },
        onError: (err) => {
          setErrors(fieldErrorsOf(err));
          focusFirstInvalid();
          notifyError(errorMessage(err));
        },
      },
    );
  };

  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Stack gap="sm">
          <TextInput label="Название" required value={title} onChange={(e) => setTitle(e.currentTarget.value)} error={errors.title} maxLength={255} />
          <Select
            label="Тип шаблона"
            required
            data={types.map((t) => ({ value: String(t.id), label: t.fdv }))}
            value={String(type)}
            onChange={(v) => v && setType(Number(v))}
            error={errors.dict_type_id}
            allowDeselect={false}
            disabled={templateId !== null}
          />
          {kind === 'file' && (
            <Stack gap="xs">
              <Alert variant="light" icon={<IconInfoCircle size={18} />}>
                Загрузите документ Word (.docx) с макросами вида {'${user.fio}'}. Шаблон с незакрытым или неизвестным макросом не будет принят; макрос без
                данных печатается пустой строкой «______»; договор и согласие с незаполненными паспортными данными клиента не печатаются, пока клиент их не
                внесёт.
              </Alert>
              {template?.file && (
                <Group gap="xs">
                  <IconFileTypeDocx size={18} />
                  <Text size="sm">Текущий файл:</Text>
                  <Anchor
                    size="sm"
                    component="button"
                    type="button"
                    onClick={() => void downloadTemplateFile(template.id, template.file!.name).catch(() => notifyError('Не удалось скачать файл'))}
                  >
                    {template.file.name}
                  </Anchor>
                </Group>
              )}
              <FileInput
                label={templateId !== null ? 'Заменить файл' : 'Файл шаблона'}
                placeholder="Выберите файл .docx"
                accept={DOCX_ACCEPT}
                value={file}
                onChange={(f) => {
                  setFile(f);
                  if (errors.file) setErrors(({ file: _dropped, ...rest }) => rest);
                }}
                error={errors.file}
                clearable
                required={templateId === null}
                data-testid="template-file"
              />
              {template && template.macros.length > 0 && (
                <Text size="xs" c="dimmed">
                  Макросы в шаблоне: {template.macros.map((m) => `\${${m}}`).join(', ')}
                </Text>
              )}
            </Stack>
          )}
          {kind === 'html' && (
            <Tabs value={htmlTab} onChange={setHtmlTab}>
              <Tabs.List>
                <Tabs.Tab value="html">HTML</Tabs.Tab>
                <Tabs.Tab value="preview">Предпросмотр</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="html" pt="xs">
                <Textarea
                  ref={textarea}
                  aria-label="HTML шаблона"
                  value={content}
                  onChange={(e) => changeContent(e.currentTarget.value)}
                  error={errors.content}
                  autosize
                  minRows={14}
                  maxRows={24}
                  styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
                />
              </Tabs.Panel>
              <Tabs.Panel value="preview" pt="xs">
                {/* Sandboxed: the operator's HTML is shown as the PDF will render it, with no scripts. */}
                <iframe
                  title="Предпросмотр"
                  sandbox=""
                  srcDoc={`<!doctype html><meta charset="utf-8"><body style="font-family:'Liberation Serif','Times New Roman',serif">${content}</body>`}
                  style={{ width: '100%', height: 420, border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8, background: '#fff' }}
                />
              </Tabs.Panel>
            </Tabs>
          )}
          {kind === 'rich' && (
            <Stack gap={4}>
              <Suspense fallback={<Skeleton h={300} />}>
                <RichEditor
                  value={content}
                  onChange={changeContent}
                  onEditor={(e) => {
                    editor.current = e;
                  }}
                />
              </Suspense>
              {errors.content && (
                <Text size="xs" c="red.7">
                  {errors.content}
                </Text>
              )}
            </Stack>
          )}
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <MacroPanel categories={categories} onPick={kind === 'file' ? undefined : insert} height={narrow ? 300 : 520} />
      </Grid.Col>
      <Grid.Col span={12}>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Отмена
          </Button>
          <Button onClick={submit} loading={save.isPending}>
            Сохранить
          </Button>
        </Group>
      </Grid.Col>
    </Grid>
  );
}
