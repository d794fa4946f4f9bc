// Rich-text editing of letters (event e-mails, mass mailing): Mantine's tiptap editor with the
// toolbar a letter needs and Russian labels. Loaded only by the screens that use it.
import { useEffect } from 'react';
import { Input } from '@mantine/core';
import { DEFAULT_LABELS, Link, RichTextEditor as Editor, type RichTextEditorLabels } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import '@mantine/tiptap/styles.css';

const LABELS: RichTextEditorLabels = {
  ...DEFAULT_LABELS,
  linkControlLabel: 'Ссылка',
  boldControlLabel: 'Полужирный',
  italicControlLabel: 'Курсив',
  underlineControlLabel: 'Подчёркнутый',
  strikeControlLabel: 'Зачёркнутый',
  clearFormattingControlLabel: 'Очистить форматирование',
  unlinkControlLabel: 'Убрать ссылку',
  bulletListControlLabel: 'Маркированный список',
  orderedListControlLabel: 'Нумерованный список',
  sourceCodeControlLabel: 'HTML-код',
  h2ControlLabel: 'Заголовок',
  h3ControlLabel: 'Подзаголовок',
  blockquoteControlLabel: 'Цитата',
  hrControlLabel: 'Горизонтальная линия',
  undoControlLabel: 'Отменить',
  redoControlLabel: 'Повторить',
  linkEditorInputLabel: 'Адрес ссылки',
  linkEditorInputPlaceholder: 'https://example.ru/',
  linkEditorExternalLink: 'Открывать в новой вкладке',
  linkEditorInternalLink: 'Открывать в этой вкладке',
  linkEditorSave: 'Сохранить',
};

export interface RichTextEditorProps {
  label?: string;
  value: string;
  onChange: (html: string) => void;
  error?: string | null;
  minHeight?: number;
  /** For tests and labels: the editable area's accessible name. */
  ariaLabel?: string;
  disabled?: boolean;
}

export function RichTextEditor({ label, value, onChange, error, minHeight = 220, ariaLabel, disabled }: RichTextEditorProps) {
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: false }), Link.configure({ openOnClick: false })],
    content: value,
    immediatelyRender: true,
    shouldRerenderOnTransaction: true,
    editorProps: { attributes: { 'aria-label': ariaLabel ?? label ?? '', role: 'textbox', 'aria-multiline': 'true' } },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
  });

  // A value set from outside (a template loaded, the form cleared) replaces the content.
  useEffect(() => {
    // A destroyed editor (unmounted while its effects were pending) has no schema to read.
    if (!editor || editor.isDestroyed) return;
    const current = editor.isEmpty ? '' : editor.getHTML();
    if (value !== current) editor.commands.setContent(value || '', { emitUpdate: false });
  }, [editor, value]);

  useEffect(() => {
    if (editor && !editor.isDestroyed) editor.setEditable(!disabled);
  }, [editor, disabled]);

  // An error marks the editable area invalid, so a failed submit can find and focus it (lib/focus-invalid).
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    const attributes: Record<string, string> = { 'aria-label': ariaLabel ?? label ?? '', role: 'textbox', 'aria-multiline': 'true' };
    if (error) attributes['aria-invalid'] = 'true';
    editor.setOptions({ editorProps: { ...editor.options.editorProps, attributes } });
  }, [editor, error, ariaLabel, label]);

  return (
    <Input.Wrapper label={label} error={error}>
      <Editor editor={editor} labels={LABELS} mt={label ? 4 : 0} style={error ? { borderColor: 'var(--mantine-color-error)' } : undefined}>
        <Editor.Toolbar sticky stickyOffset={0}>
          <Editor.ControlsGroup>
            <Editor.Bold />
            <Editor.Italic />
            <Editor.Underline />
            <Editor.Strikethrough />
            <Editor.ClearFormatting />
          </Editor.ControlsGroup>
          <Editor.ControlsGroup>
            <Editor.H2 />
            <Editor.H3 />
            <Editor.Blockquote />
            <Editor.Hr />
            <Editor.BulletList />
            <Editor.OrderedList />
          </Editor.ControlsGroup>
          <Editor.ControlsGroup>
            <Editor.Link />
            <Editor.Unlink />
          </Editor.ControlsGroup>
          <Editor.ControlsGroup>
            <Editor.Undo />
            <Editor.Redo />
          </Editor.ControlsGroup>
        </Editor.Toolbar>
        <Editor.Content mih={minHeight} />
      </Editor>
    </Input.Wrapper>
  );
}
