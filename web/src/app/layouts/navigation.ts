import type { ComponentType } from 'react';
import {
  IconApi,
  IconBooks,
  IconBraces,
  IconBuildingBank,
  IconCalendarEvent,
  IconCategory,
  IconChartBar,
  IconClipboardList,
  IconCreditCard,
  IconFileText,
  IconHistory,
  IconHome,
  IconIcons,
  IconId,
  IconListDetails,
  IconMail,
  IconMapPin,
  IconMessageStar,
  IconMicrophone,
  IconNews,
  IconPackage,
  IconReceipt,
  IconSchool,
  IconTags,
  IconTemplate,
  IconUser,
  IconUsers,
  IconWallet,
} from '@tabler/icons-react';

/** Which sidebar the cabinet shows. */
export type Panel = 'user' | 'manager';

export interface NavItem {
  to: string;
  label: string;
  icon: ComponentType<{ size?: number | string; stroke?: number }>;
  /** Which badge the item carries, when any. */
  badge?: 'leftSum' | 'pendingPublications';
  /** The heading the item is listed under (the manager sidebar's groups). */
  group?: string;
}

/** User sidebar (spec 01 §2, User layout). */
export const USER_NAV: NavItem[] = [
  { to: '/user/dashboard', label: 'Главная', icon: IconHome },
  { to: '/user/entry', label: 'Мои заявки', icon: IconClipboardList, badge: 'leftSum' },
  { to: '/user/service', label: 'Услуги', icon: IconSchool },
  { to: '/user/service-package', label: 'Пакеты услуг', icon: IconPackage },
  { to: '/user/publication', label: 'Мои публикации', icon: IconNews },
  { to: '/user/profile', label: 'Профиль', icon: IconUser },
];

/**
 * Manager sidebar (spec 02 §2): every operator path, grouped by the work it serves (daily work,
 * catalogue, documents, publications, money, settings, technical), so 24 items read as 7 short lists.
 */
export const MANAGER_NAV: NavItem[] = [
  { to: '/manager/dashboard', label: 'Статистика', icon: IconChartBar, group: 'Работа' },
  { to: '/manager/entry', label: 'Заявки', icon: IconClipboardList, group: 'Работа' },
  { to: '/manager/contract', label: 'Договоры', icon: IconFileText, group: 'Работа' },
  { to: '/manager/users', label: 'Пользователи', icon: IconUsers, group: 'Работа' },
  { to: '/manager/mailing', label: 'Рассылка', icon: IconMail, group: 'Работа' },
  { to: '/manager/all-services', label: 'Все услуги', icon: IconListDetails, group: 'Каталог' },
  { to: '/manager/service', label: 'Услуги по типам', icon: IconSchool, group: 'Каталог' },
  { to: '/manager/service-package', label: 'Пакеты услуг', icon: IconPackage, group: 'Каталог' },
  { to: '/manager/leadings', label: 'Ведущие', icon: IconMicrophone, group: 'Каталог' },
  { to: '/manager/templates', label: 'Шаблоны', icon: IconTemplate, group: 'Документы' },
  { to: '/manager/macroses', label: 'Макросы', icon: IconBraces, group: 'Документы' },
  { to: '/manager/publication', label: 'Публикации', icon: IconNews, badge: 'pendingPublications', group: 'Публикации' },
  { to: '/manager/publication-releases', label: 'Выпуски журнала', icon: IconBooks, group: 'Публикации' },
  { to: '/manager/publication-categories', label: 'Рубрики публикаций', icon: IconTags, group: 'Публикации' },
  { to: '/manager/publication-prices', label: 'Цены публикаций', icon: IconReceipt, group: 'Публикации' },
  { to: '/manager/reviews', label: 'Отзывы', icon: IconMessageStar, group: 'Публикации' },
  { to: '/manager/payments', label: 'Платежи', icon: IconWallet, group: 'Деньги' },
  { to: '/manager/bank-statements', label: 'Банковские выписки', icon: IconBuildingBank, group: 'Деньги' },
  { to: '/manager/yookassa', label: 'ЮKassa', icon: IconCreditCard, group: 'Деньги' },
  { to: '/manager/service-types', label: 'Типы услуг', icon: IconCategory, group: 'Настройки' },
  { to: '/manager/profiles', label: 'Профили', icon: IconId, group: 'Настройки' },
  { to: '/manager/regions', label: 'Регионы', icon: IconMapPin, group: 'Настройки' },
  { to: '/manager/events', label: 'События', icon: IconCalendarEvent, group: 'Настройки' },
  { to: '/manager/logs', label: 'Журнал изменений', icon: IconHistory, group: 'Техническое' },
  { to: '/manager/icons', label: 'Иконки', icon: IconIcons, group: 'Техническое' },
  { to: '/manager/api-requests', label: 'Запросы API', icon: IconApi, group: 'Техническое' },
];

/** Where a panel starts: its first built screen (the statistics dashboard once it exists). */
export const panelHome = (panel: Panel) => (panel === 'manager' ? (MANAGER_NAV[0]?.to ?? '/manager/entry') : '/user/dashboard');

/** A sidebar item is active on its path and below it (e.g. /user/service/12). */
export function isActivePath(pathname: string, to: string): boolean {
  return pathname === to || pathname.startsWith(`${to}/`);
}
