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
          <div className="result" role="alert">
            <h1>{isChunk ? t('errors.chunkLoad') : t('errors.errorOccurred')}</h1>
            <button type="button" className="button button-primary" onClick={() => location.reload()}>
              {t('errors.reload')}
            </button>
          </div>
        )}
      </Translation>
    );
  }
}
