import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components';
import { QRCodeSVG } from 'qrcode.react';
import { sessionApi, type TotpEnrolment } from '../api/session-api';
import { useSession } from '../session';
import { DangerButton, ErrorMessage, Field, Notice, PlainButton, PrimaryButton } from './forms';

/**
 * The account's second factor (TOTP): enrol (a QR code drawn as SVG elements, and the secret and
 * otpauth URL as text for apps that cannot scan), confirm with a first code, or turn it off with a code.
 */
export function SecondFactor() {
  const { session, refresh } = useSession();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | undefined>(undefined);
  const [code, setCode] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const enabled = session?.account?.secondFactor ?? false;
  const done = (message: string) => {
    setCode('');
    setEnrolment(undefined);
    setNotice(message);
    void refresh();
  };
  const confirm = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(undefined);
    sessionApi.confirmTotp(code.trim()).then(() => done('Second factor on: sign-in now asks for a code.'), setError);
  };
  const remove = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(undefined);
    sessionApi.removeTotp(code.trim()).then(() => done('Second factor off.'), setError);
  };
  return (
    <section aria-labelledby="totp-heading" className="card">
      <h2 id="totp-heading">Second factor</h2>
      {notice && <Notice>{notice}</Notice>}
      {enabled ? (
        <Form onSubmit={remove} className="form narrow">
          <p>
            <span className="badge ok">on</span> Signing in asks for a code from your authenticator app.
          </p>
          <Field
            label="Code to turn it off"
            value={code}
            onChange={setCode}
            inputMode="numeric"
            autoComplete="one-time-code"
            isRequired
            description="The 6-digit code your app shows now."
          />
          <ErrorMessage error={error} />
          <DangerButton type="submit">Turn off the second factor</DangerButton>
        </Form>
      ) : enrolment ? (
        <Form onSubmit={confirm} className="form">
          <p>Scan the code with an authenticator app, or enter the secret by hand, then type the code it shows.</p>
          <div className="totp-enrolment">
            <QRCodeSVG value={enrolment.otpauthUrl} size={176} marginSize={2} title="QR code of the otpauth URL" />
            <dl className="details">
              <dt>Secret</dt>
              <dd>
                <code className="cell-id">{enrolment.secret}</code>
              </dd>
              <dt>otpauth URL</dt>
              <dd>
                <code className="cell-id">{enrolment.otpauthUrl}</code>
              </dd>
            </dl>
          </div>
          <Field
            label="Code from the app"
            value={code}
            onChange={setCode}
            inputMode="numeric"
            autoComplete="one-time-code"
            isRequired
          />
          <ErrorMessage error={error} />
          <div className="form-actions">
            <PrimaryButton type="submit">Confirm and turn on</PrimaryButton>
            <PlainButton onPress={() => setEnrolment(undefined)}>Cancel</PlainButton>
          </div>
        </Form>
      ) : (
        <>
          <p>
            Off: signing in needs only your password. A code from an authenticator app makes a stolen password useless.
          </p>
          <ErrorMessage error={error} />
          <PrimaryButton
            onPress={() => {
              setError(undefined);
              setNotice(undefined);
              sessionApi.startTotp().then(setEnrolment, setError);
            }}
          >
            Set up a second factor
          </PrimaryButton>
        </>
      )}
    </section>
  );
}
