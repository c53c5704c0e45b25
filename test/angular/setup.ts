// Angular 17's TestBed needs zone.js and, for components compiled at test time (JIT), the compiler.
import "zone.js";
import "zone.js/testing";
import "@angular/compiler";
import { TestBed } from "@angular/core/testing";
import { BrowserDynamicTestingModule, platformBrowserDynamicTesting } from "@angular/platform-browser-dynamic/testing";

TestBed.initTestEnvironment(BrowserDynamicTestingModule, platformBrowserDynamicTesting());
