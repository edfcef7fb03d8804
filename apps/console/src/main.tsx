import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Router } from 'wouter';
import { App } from './App';
import { SessionProvider } from './session';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('no #root element');
createRoot(root).render(
  <StrictMode>
    <Router base="/console">
      <SessionProvider>
        <App />
      </SessionProvider>
    </Router>
  </StrictMode>,
);
