import { Button, Result } from 'antd';
import { Component, type ReactNode } from 'react';
import { Translation } from 'react-i18next';
import { ChunkLoadError } from './lazy';

interface State {
  error: Error | null;
}

/** Shows a failed chunk load (or any render error) with a way out instead of a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  render() {
    if (!this.state.error) return this.props.children;
    const isChunk = this.state.error instanceof ChunkLoadError;
    return (
      <Translation>
        {(t) => (
          <Result
            status={isChunk ? 'warning' : 'error'}
            title={isChunk ? t('errors.chunkLoad') : t('errors.errorOccurred')}
            extra={
              <Button type="primary" onClick={() => location.reload()}>
                {t('errors.reload')}
              </Button>
            }
          />
        )}
      </Translation>
    );
  }
}
