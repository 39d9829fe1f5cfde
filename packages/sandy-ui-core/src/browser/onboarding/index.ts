export * from './wizard-view';
