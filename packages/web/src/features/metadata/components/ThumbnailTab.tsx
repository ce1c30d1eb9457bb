import { Button, Card, Empty, Image, Popconfirm, Space, Typography, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { METADATA_LIMITS } from '@portal/shared';
import { base, deleteStored, resource, uploadFile, type EditorTabProps, type Media } from '../api';
import { useFeedback } from './useFeedback';

/** Thumbnail: one image under 1 MB (spec section 5); the server keeps a resized copy, shown here. */
export function ThumbnailTab({ record, readOnly }: EditorTabProps) {
  const { message, t } = useFeedback();
  const queryClient = useQueryClient();
  const key = ['metadata', 'thumbnail', record.id];
  const { data } = useQuery({ queryKey: key, queryFn: () => resource.list<Media>('meta-media', { metadata__id: record.id, type: 'thumbnail' }) });
  const [uploading, setUploading] = useState(false);
  const media = data?.results ?? [];

  const check = (file: File) => {
    if (!file.type.startsWith('image/')) {
      message.error(t('metadata.files.imageOnly'));
      return false;
    }
    if (file.size >= METADATA_LIMITS.thumbnailMaxBytes) {
      message.error(t('metadata.files.imageTooBig'));
      return false;
    }
    return true;
  };

  const upload = async (file: File) => {
    setUploading(true);
    try {
      // The server keeps one thumbnail a record: the new one replaces the earlier ones itself.
      await uploadFile(base('meta-media'), record.id, file, { type: 'thumbnail' });
      message.success(t('metadata.files.uploaded'));
    } catch (error) {
      // One message: the server's, else the editor's own.
      message.error(error instanceof Error && error.message ? error.message : t('metadata.files.uploadFailed'));
    } finally {
      setUploading(false);
    }
    await queryClient.invalidateQueries({ queryKey: key });
  };

  const remove = async (id: string) => {
    if (await deleteStored('meta-media', id)) message.success(t('editor.files.deleted'));
    else message.error(t('metadata.files.deleteFailed'));
    await queryClient.invalidateQueries({ queryKey: key });
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Paragraph type="secondary">{t('editor.thumbnail.hint')}</Typography.Paragraph>
      {!readOnly && (
        <Upload accept="image/*" showUploadList={false} beforeUpload={(file) => (check(file) ? true : Upload.LIST_IGNORE)} customRequest={({ file }) => void upload(file as File)}>
          <Button icon={<UploadOutlined />} loading={uploading}>
            {t('editor.thumbnail.upload')}
          </Button>
        </Upload>
      )}
      {media.length === 0 ? (
        <Empty description={t('editor.thumbnail.none')} />
      ) : (
        media.map((item) => (
          <Card key={item.id} size="small" style={{ maxWidth: METADATA_LIMITS.thumbnailResizedSide + 40 }}>
            <Image src={item.image} alt={t('editor.thumbnail.alt')} style={{ maxWidth: METADATA_LIMITS.thumbnailResizedSide }} preview={{ src: item.original }} />
            {!readOnly && (
              <Popconfirm title={t('editor.removeConfirm')} okText={t('editor.yes')} cancelText={t('editor.no')} onConfirm={() => remove(item.id)}>
                <Button danger size="small" style={{ marginTop: 8, display: 'block' }}>
                  {t('editor.delete')}
                </Button>
              </Popconfirm>
            )}
          </Card>
        ))
      )}
    </Space>
  );
}
