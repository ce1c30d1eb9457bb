import type { uploadsEn } from './uploads.en.js';

/** 可续传的上传（issue 19）：分片上传与 tus 协议拒绝的情形。 */
export const uploadsZhHans: Record<keyof typeof uploadsEn, string> = {
  compress: '超过 50GB 的文件须压缩后再上传。',
  noSize: '请给出整个文件的大小。',
  empty: '文件为空。',
  badName: '请给出文件名。',
  sha256: 'sha256 须为 SHA-256 的 64 位十六进制数字。',
  sha256Mismatch: '上传的文件与其 SHA-256 不符，未保存任何内容。',
  checksumMismatch: '该数据块与其校验和不符，未被保留。',
  checksumAlgorithm: 'Upload-Checksum 须为 sha1、md5 或 sha256 及 Base64 编码的摘要。',
  chunkFields: 'identifier、filename、chunkNumber、totalChunks、chunkSize、currentChunkSize 和 totalSize 为必填的整数和文本。',
  chunkNumber: '分片序号须在 1 到 {{total}} 之间。',
  chunkLayout: 'totalChunks 与 totalSize 和 chunkSize 不符。',
  chunkSize: '该分片有 {{actual}} 字节，而声明的是 {{expected}} 字节。',
  changed: '该上传以另一个文件名、文件夹或大小开始；请用新的 identifier 重新开始。',
  notYours: '该上传属于另一个账户。',
  notFound: '没有该上传：它已完成、已取消或已过期。',
  offset: '该上传已有 {{offset}} 字节；请从那里继续。',
  tooLong: '数据超出了上传所声明的大小。',
  metadata: 'Upload-Metadata 须以 Base64 编码给出元数据（metadata）和文件名（filename）。',
  length: 'Upload-Length 须为文件的整数字节数。',
  contentType: '数据须以 application/offset+octet-stream 发送。',
  version: '只支持 tus 1.0.0。',
  busy: '另一个请求正在写入该上传；请稍后再试。',
};
