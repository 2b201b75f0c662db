/**
 * The login page's antd dialogs (registration, forgot password) in antd's providers of
 * their own: the login page renders without antd, and this module, with antd, loads the
 * first time one of them is opened.
 */
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { AntdTheme } from '../../frame/antd-frame.tsx';
import { PasswordDialog } from '../../password/PasswordDialog.tsx';
import RegisterDialog from './RegisterDialog.tsx';

export type HelpPanel = 'register' | 'forgot';

export interface LoginHelpDialogsProps {
  /** The dialog open now, if any. */
  panel: HelpPanel | null;
  /** The dialogs opened so far: they stay mounted so that their closing animation runs. */
  opened: ReadonlySet<HelpPanel>;
  onClose(): void;
}

export default function LoginHelpDialogs(props: LoginHelpDialogsProps) {
  return (
    <AntdTheme>
      <Dialogs {...props} />
    </AntdTheme>
  );
}

function Dialogs({ panel, opened, onClose }: LoginHelpDialogsProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <>
      {opened.has('register') ? <RegisterDialog open={panel === 'register'} onClose={onClose} /> : null}
      {opened.has('forgot') ? (
        <PasswordDialog
          open={panel === 'forgot'}
          title={t('loginHelp.forgotTitle')}
          onCancel={onClose}
          onSaved={() => {
            onClose();
            void message.success(t('loginHelp.passwordReset'));
          }}
        />
      ) : null}
    </>
  );
}
