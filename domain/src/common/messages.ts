// Russian texts of the spec, word for word. One place so server and web say the same thing.

export const Messages = {
  required: 'Заполните все обязательные поля!',
  serverError: 'Ошибка сервера',
  oops: 'Oops, something went wrong!',
  invalidEmail: 'Введите корректный email',
  authInvalid: 'Неверные данные для входа.',
  authUserNotFound: 'Пользователь не найден. Пожалуйста, пройдите регистрацию.',
  authWrongPassword: 'Неверный пароль. Забыли пароль?',
  registered: 'Вы успешно зарегистрированы в системе!',
  passwordSent: 'Новый пароль был отправлен на указанный email',
  emailNotFound: 'Ошибка! Указанный email не найден в текущей системе.',
  passwordMinLength: 'Минимальная длина: 4 символа',
  passwordsMatch: 'Пароли совпадают',
  passwordsDontMatch: 'Пароли не совпадают',
  passwordsDontMatchBang: 'Пароли не совпадают!',
  passwordUpdated: 'Пароль успешно обновлён!',
  fillAccordingToRules: 'Заполните все поля в соответствии с требованиями',
  pleaseWait: 'Пожалуйста, подождите...',
  saved: 'Успешно сохранено!',
  deleted: 'Успешно удалено',
  nothingFound: 'Ничего не найдено',
  nothingFoundSad: 'Ничего не найдено :(',
  serviceNotFound: 'Услуга не найдена :(',
  paymentFailed: 'Произошёл сбой',
  // Texts the spec does not give; ours, in the same voice.
  fieldRequired: 'Обязательное поле',
  phoneFormat: 'Телефон в формате +7 (999) 999-99-99',
  emailTaken: 'Пользователь с таким email уже существует',
  phoneTaken: 'Пользователь с таким телефоном уже существует',
  duplicateAccount: 'Такой пользователь уже существует',
  tooManyAttempts: 'Слишком много попыток входа. Попробуйте снова через несколько минут.',
  tooManyRequests: 'Слишком много запросов. Попробуйте позже.',
  exportRunning: 'Выгрузка в Excel уже готовится. Дождитесь её окончания и повторите.',
  unauthenticated: 'Требуется вход в систему',
  forbidden: 'Недостаточно прав',
  notFound: 'Не найдено',
  maxLength: (n: number) => `Максимальная длина: ${n} символов`,
} as const;

/** Auth failure codes carried in the error body (spec 01 §8). */
export const AuthCode = { invalid: 500, userNotFound: 531, wrongPassword: 532 } as const;
export type AuthCodeValue = (typeof AuthCode)[keyof typeof AuthCode];

export const authCodeMessages: Record<AuthCodeValue, string> = {
  500: Messages.authInvalid,
  531: Messages.authUserNotFound,
  532: Messages.authWrongPassword,
};

/** Notice display times, ms (spec 01 §9). */
export const NOTICE_MS = 5000;
export const NOTIFICATION_POPUP_MS = 2000;

/** Password strength labels for scores 0..4. */
export const passwordStrengthLabels = ['очень слабый', 'слабый', 'средний', 'надёжный', 'очень надёжный'] as const;

/** Legacy cabinet notice on the login page (spec 01 §1). */
export const OLD_CABINET_YEARS = 10;
