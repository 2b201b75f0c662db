/**
 * The equipment-control widget behind the runtime's widget API: the ONE file of the
 * widget that reads the screen's configuration. Screen props:
 *
 *   view      units (default) | charts | scenarios | system | soil | weather | wall | reportTrend
 *   report    reportTrend: seedling | insect | disaster
 *   kinds     device kinds shown (units, system), e.g. ["airConditioner"]
 *   units     unit names shown (units), e.g. ["水肥一体机"]
 *   control   the element code that allows commands; ":control" resolves against the
 *             screen's menu code, which is sent with each command (the server checks it)
 *   kind, range  the chart's first measure and range (charts)
 *
 * State and readings are pushed (live.ts); controls show pending until acknowledged.
 */
import { Button } from 'antd';
import type { WidgetProps } from '../../runtime/widgets/api.ts';
import { ChartsView } from './Charts.tsx';
import { useLiveUnits } from './live.ts';
import { BuildView } from './Build.tsx';
import { SoilView, WeatherView } from './Others.tsx';
import { ReportTrendView } from './ReportTrend.tsx';
import { ScenariosView } from './Scenarios.tsx';
import { TEXTS } from './texts.ts';
import { UnitsView } from './Units.tsx';
import './equipment.css';

const list = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);

export default function EquipmentControlWidget({ config, authority, services, language }: WidgetProps) {
  const texts = TEXTS[language];
  const view = typeof config.view === 'string' ? config.view : 'units';
  const kinds = list(config.kinds);
  const live = useLiveUnits(services, view === 'units' || view === 'wall' ? kinds : undefined, view !== 'reportTrend');
  const control = typeof config.control === 'string' ? config.control : undefined;
  const canControl = !!control && services.access.can({ elements: [control.startsWith(':') ? `${authority}${control}` : control] });
  const menu = control?.startsWith(':') ? authority : (control?.split(':')[0] ?? authority);
  switch (view) {
    case 'charts':
      return <ChartsView services={services} texts={texts} units={live.units} live={live} defaultKind={typeof config.kind === 'string' ? config.kind : undefined} defaultRange={typeof config.range === 'string' ? config.range : undefined} />;
    case 'scenarios':
      return <ScenariosView services={services} texts={texts} units={live.units} can={(a) => services.access.can({ elements: [`${authority}:${a}`] })} />;
    case 'system':
      return <BuildView services={services} units={live.units} texts={texts} kinds={kinds} menu={authority} can={(a) => services.access.can({ elements: [`${authority}:${a}`] })} />;
    case 'soil':
      return (
        <>
          <SoilView units={live.units} texts={texts} />
          <ChartsView services={services} texts={texts} units={live.units} live={live} defaultKind="soilMoisture" defaultRange="30d" />
        </>
      );
    case 'reportTrend':
      return <ReportTrendView services={services} texts={texts} report={typeof config.report === 'string' ? config.report : 'seedling'} defaultRange={typeof config.range === 'string' ? config.range : undefined} />;
    case 'weather':
      return <WeatherView services={services} texts={texts} units={live.units} />;
    case 'wall':
      return (
        <div className="eqc-wall-frame">
          <Button className="eqc-full" onClick={(e) => void (e.currentTarget.closest('.eqc-wall-frame') as HTMLElement | null)?.requestFullscreen?.()}>
            {texts.fullScreen}
          </Button>
          <UnitsView live={live} texts={texts} services={services} menu={menu} canControl={false} wall />
        </div>
      );
    default:
      return <UnitsView live={live} texts={texts} services={services} menu={menu} canControl={canControl} onlyUnits={list(config.units)} />;
  }
}
