/**
 * The page around a public screen (`public: true`, e.g. an article read before login):
 * no console layout, no session; a centred column with the language switch's language.
 */
import { Layout } from 'antd';
import type { ReactNode } from 'react';

export function PublicFrame({ children }: { children: ReactNode }) {
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Content style={{ width: '100%', maxWidth: 960, margin: '0 auto', padding: '24px 16px' }} data-public-screen>
        {children}
      </Layout.Content>
    </Layout>
  );
}
