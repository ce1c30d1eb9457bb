/** How stored files go out, with no rules of who may have them: ranges, attachments, zips, signed links, counting a download. */
export { countDownload, startsDownload } from './counting.js';
export { attachmentDisposition, markInert, sendStoredFile, sendZip, type StoredFileFacts } from './send-file.js';
export {
  downloadLinkKey,
  downloadLinkQuery,
  signDownloadLink,
  signIndexLink,
  verifyDownloadLink,
  verifyIndexLink,
  type DownloadLink,
  type IndexLink,
  type SignedLinkParams,
} from './signed-link.js';
export { datasetFolder, datasetFolders, streamZip, type ZipDownload, type ZipEntry, type ZipLog } from './zip-stream.js';
