import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { organisationKind, type UserInfo } from '../../session/user-info.ts';

/** The organisation label of spec section 1 (by farmType; only a group set: service provider). */
export function OrganisationLabel({ info }: { info: UserInfo }) {
  const { t } = useTranslation();
  const kind = organisationKind(info);
  if (!kind) return null;
  return (
    <Tag color="green" data-testid="org-label">
      {t(`org.${kind}`)}
    </Tag>
  );
}
