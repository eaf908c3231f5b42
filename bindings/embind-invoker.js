// Embind's invokers, made without eval: a JS library (--js-library) that replaces 3.1.6's
// $craftInvokerFunction. Its default builds each function's invoker as source text with
// `new Function` (which a page whose Content-Security-Policy lacks 'unsafe-eval' refuses); its
// DYNAMIC_EXECUTION=0 form is CSP-safe but generic (arguments copied into arrays, apply, a closure
// per call), about 130 ns a call against 16 ns. Here each function gets a closure written for its
// arity (up to 4 arguments, free functions, argument types with no destructor stack: every
// function of bindings/embind.cpp), which does what the generated source would: wire each
// argument, call, run the argument destructors (a std::string's free), read the return value.
// Anything else (class methods, more arguments, types that need a destructor stack) takes a
// generic closure, as 3.1.6's DYNAMIC_EXECUTION=0 path does.
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
