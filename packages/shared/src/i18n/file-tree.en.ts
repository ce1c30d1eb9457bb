/** A record's file tree (issue 19): what its calls refuse. */
export const fileTreeEn = {
  nameRequired: 'Please enter a name.',
  nameIllegal: 'The name holds characters that are not allowed.',
  nameSlash: 'A name cannot contain a slash.',
  nameDots: 'A name cannot be "." or "..".',
  nameSpaces: 'A name cannot begin or end with a space.',
  nameTooLong: 'A name has at most 255 characters.',
  pathDots: 'A path cannot contain "..".',
  pathTooLong: 'The path is too long.',
  rootPath: 'The root folder cannot be changed.',
  noFolder: 'There is no such folder.',
  noEntry: 'There is no such file or folder.',
  exists: 'A file or folder of that name exists in this folder already.',
  intoItself: 'A folder cannot be moved into itself.',
  ordering: 'Sort by name, -name, size, -size, modified or -modified.',
  metadataRequired: 'Please give the metadata id (metadata_id).',
};
