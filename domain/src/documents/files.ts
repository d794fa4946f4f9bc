// Upload rules shared by every document upload (spec 01 §5, §8; spec 02 §5): .pdf, .jpg, .png, at most 10 MB.
export const FILE_MAX_BYTES = 10 * 1024 * 1024;
export const DOCUMENT_ACCEPT = '.pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png';
export const DOCX_ACCEPT = '.docx,application/vnd.openxmlformats-officedocument.wordprocessingml.document';

export const FileMessages = {
  uploaded: 'Файл успешно загружен!',
  uploadedMany: 'Файлы успешно загружены!',
  noFile: 'Выберите файл',
  tooLarge: 'Файл больше 10 МБ',
  documentType: 'Допустимые форматы: .pdf, .jpg, .png, не более 10 МБ',
  docxType: 'Загрузите шаблон в формате .docx',
  // Ours (issue 18: production limits), in the same voice.
  malformedForm: 'Форма с файлами пришла с ошибкой или не полностью. Отправьте её ещё раз.',
  quotaExceeded: (mb: number) => `Не хватает места: на все ваши файлы отведено ${mb} МБ. Удалите ненужные документы или обратитесь к менеджеру.`,
  tooManyUploads: (count: number, minutes: number) => `Слишком много загрузок файлов: не больше ${count} за ${minutes} мин. Попробуйте позже.`,
} as const;
