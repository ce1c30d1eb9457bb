import { Card, Layout, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { LanguageSwitch } from '../../../components/LanguageSwitch';
import { SiteBrand } from '../../../components/SiteBrand';
import { useIsPhone } from '../../../components/useIsPhone';

/** Login, register, forgot, reset and send render outside the personal-centre shell. */
export function AccountScreen({ title, children, width = 440 }: { title: string; children: ReactNode; width?: number }) {
  const isPhone = useIsPhone();
  return (
    <Layout style={{ minHeight: '100vh', background: 'linear-gradient(160deg, #eaf2fb, #f7f9fc)' }}>
      <Layout.Header
        style={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: 8,
          background: 'transparent',
          paddingInline: isPhone ? 12 : 24,
          height: 'auto',
          minHeight: 64,
          lineHeight: 1.3,
        }}
      >
        {/* On a phone a long site title takes two lines rather than being cut. */}
        <SiteBrand wrap={isPhone} />
        <LanguageSwitch />
      </Layout.Header>
      <Layout.Content style={{ display: 'flex', justifyContent: 'center', padding: '32px 16px' }}>
        <Card style={{ width, maxWidth: '100%', alignSelf: 'flex-start' }}>
          <Space direction="vertical" size="middle" style={{ width: '100%' }}>
            <Typography.Title level={1} style={{ fontSize: 24, margin: 0 }}>
              {title}
            </Typography.Title>
            {children}
          </Space>
        </Card>
      </Layout.Content>
    </Layout>
  );
}
