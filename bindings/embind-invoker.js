// Embind's invokers, made without eval: a JS library (--js-library) that replaces 3.1.6's
// $craftInvokerFunction. Its default builds each function's invoker as source text with
// `new Function` (which a page whose Content-Security-Policy lacks 'unsafe-eval' refuses); its
// DYNAMIC_EXECUTION=0 form is CSP-safe but generic (arguments copied into arrays, apply, a closure
// per call): several times the cost of these for a call of numbers (bench/boundary.mjs;
// docs/performance.md, "The boundary"). Here each function gets a closure written for its arity
// (up to 4 arguments, free functions, argument types with no destructor stack: every function of
// bindings/embind.cpp; tensorCreateHandle's 7 numbers take the number-only form), which does what
// the generated source would: wire each argument, call, run the argument destructors (a
// std::string's free), read the return value.
// Where every argument is a C++ number (integers of 32 bits or less, float, double) the closure
// passes the JS values as they are: their toWireType only returns the value (unsigned: >>> 0,
// which the call's own ToInt32 makes the same bits), and in V8's first tiers, a session's first
// runs, each of those calls cost as much as the wasm call itself. Anything else (class methods,
// more arguments, types that need a destructor stack) takes a generic closure, as 3.1.6's
// DYNAMIC_EXECUTION=0 path does.
// Depends on Emscripten 3.1.6 internals; scripts/build-wasm.sh checks the version.
mergeInto(LibraryManager.library, {
  $craftInvokerFunction__deps: ['$throwBindingError', '$runDestructors'],
  $craftInvokerFunction: function(humanName, argTypes, classType, cppInvokerFunc, cppTargetFunc) {
    if (argTypes.length < 2) throwBindingError("argTypes array size mismatch! Must at least get return value and 'this' types!");
    var expected = argTypes.length - 2;
    var isClassMethod = argTypes[1] !== null && classType !== null;
    var retType = argTypes[0];
    var returns = retType.name !== 'void';
    var params = argTypes.slice(2);
    var needsStack = false;
    for (var i = 1; i < argTypes.length; ++i) {
      if (argTypes[i] !== null && argTypes[i].destructorFunction === undefined) needsStack = true;
    }
    var badCount = function(n) {
      throwBindingError('function ' + humanName + ' called with ' + n + ' arguments, expected ' + expected + ' args!');
    };

    // Number types as embind.js registers them (bind.cpp's names).
    var NUMBERS = ['char', 'signed char', 'unsigned char', 'short', 'unsigned short', 'int', 'unsigned int',
      'long', 'unsigned long', 'float', 'double'];
    var isNumber = function(t) { return NUMBERS.indexOf(t.name) >= 0; };
    if (!isClassMethod && params.every(isNumber) && (isNumber(retType) || !returns || retType.name === 'bool')) {
      // The return value: 0 as it is, 1 unsigned (>>> 0), 2 bool. (No `arguments` here: in V8's
      // first tiers it allocates an object per call. A missing argument is undefined, which no
      // number is; one too many is ignored.)
      var kind = !returns ? 0 : retType.name === 'bool' ? 2 : retType.name.indexOf('unsigned') === 0 ? 1 : 0;
      var g = cppInvokerFunc, gfn = cppTargetFunc;
      var missing = function() { throwBindingError('function ' + humanName + ' called with too few arguments, expected ' + expected + ' args!'); };
      switch (expected) {
        case 0: return function() {
          var rv = g(gfn);
          return kind === 0 ? rv : kind === 1 ? rv >>> 0 : !!rv;
        };
        case 1: return function(x0) {
          if (x0 === undefined) missing();
          var rv = g(gfn, x0);
          return kind === 0 ? rv : kind === 1 ? rv >>> 0 : !!rv;
        };
        case 2: return function(x0, x1) {
          if (x1 === undefined) missing();
          var rv = g(gfn, x0, x1);
          return kind === 0 ? rv : kind === 1 ? rv >>> 0 : !!rv;
        };
        case 3: return function(x0, x1, x2) {
          if (x2 === undefined) missing();
          var rv = g(gfn, x0, x1, x2);
          return kind === 0 ? rv : kind === 1 ? rv >>> 0 : !!rv;
        };
        case 4: return function(x0, x1, x2, x3) {
          if (x3 === undefined) missing();
          var rv = g(gfn, x0, x1, x2, x3);
          return kind === 0 ? rv : kind === 1 ? rv >>> 0 : !!rv;
        };
        case 7: return function(x0, x1, x2, x3, x4, x5, x6) {   // (tensorCreateHandle: a Tensor made per run)
          if (x6 === undefined) missing();
          var rv = g(gfn, x0, x1, x2, x3, x4, x5, x6);
          return kind === 0 ? rv : kind === 1 ? rv >>> 0 : !!rv;
        };
        default: return function() {
          // (other counts: none on a run's path)
          if (arguments.length < expected) missing();
          var rv = g.apply(null, [gfn].concat(Array.prototype.slice.call(arguments, 0, expected)));
          return kind === 0 ? rv : kind === 1 ? rv >>> 0 : !!rv;
        };
      }
    }

    if (!isClassMethod && !needsStack && expected <= 4) {
      var t0 = params[0], t1 = params[1], t2 = params[2], t3 = params[3];
      var d0 = t0 && t0.destructorFunction, d1 = t1 && t1.destructorFunction;
      var d2 = t2 && t2.destructorFunction, d3 = t3 && t3.destructorFunction;
      var f = cppInvokerFunc, fn = cppTargetFunc;
      var out = returns ? function(rv) { return retType['fromWireType'](rv); } : function() {};
      switch (expected) {
        case 0: return function() {
          if (arguments.length !== 0) badCount(arguments.length);
          return out(f(fn));
        };
        case 1: return function(x0) {
          if (arguments.length !== 1) badCount(arguments.length);
          var w0 = t0['toWireType'](null, x0);
          var rv = f(fn, w0);
          if (d0) d0(w0);
          return out(rv);
        };
        case 2: return function(x0, x1) {
          if (arguments.length !== 2) badCount(arguments.length);
          var w0 = t0['toWireType'](null, x0), w1 = t1['toWireType'](null, x1);
          var rv = f(fn, w0, w1);
          if (d0) d0(w0);
          if (d1) d1(w1);
          return out(rv);
        };
        case 3: return function(x0, x1, x2) {
          if (arguments.length !== 3) badCount(arguments.length);
          var w0 = t0['toWireType'](null, x0), w1 = t1['toWireType'](null, x1), w2 = t2['toWireType'](null, x2);
          var rv = f(fn, w0, w1, w2);
          if (d0) d0(w0);
          if (d1) d1(w1);
          if (d2) d2(w2);
          return out(rv);
        };
        default: return function(x0, x1, x2, x3) {
          if (arguments.length !== 4) badCount(arguments.length);
          var w0 = t0['toWireType'](null, x0), w1 = t1['toWireType'](null, x1), w2 = t2['toWireType'](null, x2);
          var w3 = t3['toWireType'](null, x3);
          var rv = f(fn, w0, w1, w2, w3);
          if (d0) d0(w0);
          if (d1) d1(w1);
          if (d2) d2(w2);
          if (d3) d3(w3);
          return out(rv);
        };
      }
    }

    // The generic form (as 3.1.6's DYNAMIC_EXECUTION=0 invoker).
    return function() {
      if (arguments.length !== expected) badCount(arguments.length);
      var destructors = [];
      var wired = [cppTargetFunc];
      var thisWired;
      if (isClassMethod) {
        thisWired = argTypes[1]['toWireType'](destructors, this);
        wired.push(thisWired);
      }
      for (var i = 0; i < expected; ++i) wired.push(params[i]['toWireType'](destructors, arguments[i]));
      var rv = cppInvokerFunc.apply(null, wired);
      if (needsStack) {
        runDestructors(destructors);
      } else {
        for (var k = isClassMethod ? 1 : 2; k < argTypes.length; ++k) {
          var param = k === 1 ? thisWired : wired[k - (isClassMethod ? 0 : 1)];
          if (argTypes[k].destructorFunction !== null) argTypes[k].destructorFunction(param);
        }
      }
      if (returns) return retType['fromWireType'](rv);
    };
  },
});
