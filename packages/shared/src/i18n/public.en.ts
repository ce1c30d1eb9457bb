import { dataCartEn, voucherCheckEn } from './orders-public.en.js';
import { landingEn } from './landing.en.js';
import { searchEn } from './search.en.js';

/**
 * The part of the English catalogue the public pages (home, data, news, about) use: the web loads
 * only this on those pages (app/i18n.ts), the rest of en.ts with the personal centre and the
 * admin pages. A unit test keeps public code to these namespaces.
 */
export const publicEn = {
  site: {
    portal: { title: 'Three Poles Data Portal', short: 'Three Poles' },
    ptpe: { title: 'Pan-Third Pole Environment Data Platform', short: 'PTPE' },
    sjynp: { title: 'Sanjiangyuan National Park Data Platform', short: 'Sanjiangyuan' },
    heihe: { title: 'Heihe Plan Science Data Center', short: 'Heihe' },
    logoAlt: '{{title}} logo',
  },
  nav: {
    home: 'Home',
    data: 'Data',
    news: 'News',
    about: 'About',
    personal: 'Personal Center',
    login: 'Log in',
    register: 'Register',
    admin: 'Admin',
    signOut: 'Sign Out',
    language: 'Language',
    switchTo: '中文',
    // The accessible name starts with the visible text (WCAG 2.5.3, label in name).
    switchToLabel: '中文 (switch to Chinese)',
    menu: 'Menu',
    openMenu: 'Open the menu',
    siteMenu: 'Site',
    skipToContent: 'Skip to the content',
  },
  home: {
    welcome: 'Data of the Arctic, the Antarctic and the Tibetan Plateau',
    intro: 'Researchers describe their datasets in Chinese and English, reviewers check them, and scientists everywhere search, order and download them.',
    hotData: 'Most popular data',
    viewedData: 'Most viewed data',
    newest: 'Newest publications',
    noData: 'No dataset has been published yet.',
    noViews: 'No published dataset has been viewed yet.',
    getStarted: 'Share your data',
    signIn: 'Sign in to the personal centre',
    openPersonal: 'Go to your personal centre',
    searchLabel: 'Search the data',
    searchPlaceholder: 'Title, keyword, place or author',
    searchButton: 'Search',
    columns: { title: 'Title', downloads: 'Downloads', views: 'Views', published: 'Published' },
    statsTitle: 'The catalogue in numbers',
    stats: { datasets: 'Published datasets', files: 'Data files', volume: 'Data volume' },
    loadFailed: 'This part of the page could not be loaded.',
    retry: 'Try again',
  },
  data: {
    title: 'Data',
    empty: 'No dataset has been published yet. Published datasets will be listed and searchable here.',
  },
  news: {
    title: 'News',
    empty: 'No news has been posted yet.',
  },
  about: {
    title: 'About',
    body1: 'The portal is the data service of a scientific data centre for the Arctic, the Antarctic and the Tibetan Plateau, the three poles of the Earth.',
    body2:
      'Data providers describe each dataset with a bilingual metadata record, attach data files and documents, and submit it for review. Project leaders, invited experts and the data centre review submissions before they are published.',
    body3: 'Visitors search and browse published data, collect datasets in a basket, apply for data in one order, and download files or receive an FTP account for large volumes.',
    contact: 'Questions about the portal or a dataset: write to the data centre through your personal centre.',
  },
  notFound: {
    title: 'Page not found',
    body: 'The address {{path}} does not exist on this site.',
    back: 'Back to the home page',
  },
  errors: {
    generic: 'Something went wrong! Please try again later',
    formGeneric: 'Something went wrong!Please try again later',
    notFound: 'The requested resource was not found.',
    badRequest: 'The request is not valid.',
    malformedBody: 'The request body could not be read.',
    bodyTooLarge: 'The request is too large.',
    unsupportedMediaType: 'This content type is not accepted.',
    csrf: 'The security token of this page is missing or wrong. Reload the page and try again.',
    methodNotAllowed: 'This method is not allowed here.',
    busy: 'Too many requests from your address. Please wait {{seconds}} seconds and try again.',
    chunkLoad: 'Part of the page could not be loaded. Check your connection and reload.',
    reload: 'Reload',
    unsupportedContentType: 'The server answered with a content type the portal cannot read.',
    errorOccurred: 'Error Occured!',
  },
  common: {
    submit: 'Submit',
    cancel: 'Cancel',
    save: 'Save',
    loading: 'Loading…',
    close: 'Close',
    yes: 'Yes',
    no: 'No',
    none: 'None',
  },
  search: searchEn,
  landing: landingEn,
  dataCart: dataCartEn,
  voucherCheck: voucherCheckEn,
};
