export declare const COMMAND_FLAGS_TAG: string;
export declare const THREAD_FLAGS_TAG: string;
export declare function commandFlagsApply(): boolean;
export declare function commandFlagsTag(): string;
export declare function setCommandFlags(): boolean;
export declare function adoptFlagsTag(tag: unknown): void;
export declare function flagsTag(): string;
