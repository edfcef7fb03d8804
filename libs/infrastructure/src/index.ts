export { InfrastructureModule, type InfrastructureOptions } from './infrastructure.module';
