/** Notices by mail, in each recipient's language, with links into the personal centre (review and orders send them). */
export { mailLanguage, Notify, recipientOf, type NotifyOptions, type Recipient, type RenderedMail } from './notify.service.js';
